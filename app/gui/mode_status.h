#pragma once
// The status bar's word on the run mode: what "auto" runs on the open trace and why, a one-click
// switch to the other mode, and the mode the user chose explicitly, remembered per trace
// (QSettings "traceMode/<hash of the trace's files>").

#include "trace/trace.h"

#include <QObject>
#include <QString>

#include <string>
#include <vector>

class QLabel;
class QPushButton;
class QStatusBar;

namespace schedlab::views {
class RunOptionsWidget;
}

namespace schedlab::app {

class ModeStatus : public QObject {
    Q_OBJECT
public:
    /// Adds its note and switch to `bar`; follows and sets the mode of `options` (not owned).
    ModeStatus(views::RunOptionsWidget* options, QStatusBar* bar, QObject* parent = nullptr);
    /// A trace was opened: auto's choice on it and its reason, and the mode remembered for its files.
    void setTrace(std::shared_ptr<const trace::Trace> trace, const std::vector<std::string>& paths, bool autoFill, const QString& reason);

signals:
    /// The mode that will run is (still or now) the fill experiment, or not.
    void fillModeChanged(bool fill);

private:
    QString traceModeKey() const;
    void rememberMode();
    void update();

    views::RunOptionsWidget* m_options;
    QLabel* m_note = nullptr;
    QPushButton* m_switch = nullptr;
    std::shared_ptr<const trace::Trace> m_trace;
    std::vector<std::string> m_paths;
    QString m_reason;
};

} // namespace schedlab::app
