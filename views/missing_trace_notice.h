#pragma once
// The notice above the tabs when a project's runs were made on trace files that are no longer
// where the project recorded them (workflow::missingTraces): which file, which runs need it, what
// still works (their stored results are shown), and two ways back: locate the file (the project
// remembers the new place) or import it into the project. It only shows; the window acts.

#include "workflow/trace_location.h"

#include <QFrame>

#include <vector>

class QLabel;
class QPushButton;

namespace schedlab::views {

class MissingTraceNotice : public QFrame {
    Q_OBJECT
public:
    explicit MissingTraceNotice(QWidget* parent = nullptr);
    /// Shows the first of `traces` (the others are counted; each comes up once the one before is
    /// found); hidden when there are none. `readOnly`: a located file serves this session only,
    /// and nothing can be imported.
    void setMissing(const std::vector<workflow::MissingTrace>& traces, bool readOnly);
    /// The trace the buttons act on (-1 when hidden).
    qint64 traceId() const { return m_traceId; }
    QString text() const;
    QPushButton* locateButton() const { return m_locate; }
    QPushButton* importButton() const { return m_import; }

signals:
    /// The user asked to pick the file's new place (`import`: also store a copy in the project).
    void locateRequested(qint64 traceId, bool import);

private:
    QLabel* m_text = nullptr;
    QPushButton* m_locate = nullptr;
    QPushButton* m_import = nullptr;
    qint64 m_traceId = -1;
};

/// "1, 2 and 5" (at most `shown` ids, then "and N more").
QString listOfIds(const std::vector<int64_t>& ids, int shown = 6);

} // namespace schedlab::views
