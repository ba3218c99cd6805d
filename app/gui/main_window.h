#pragma once
// The workbench main window. For now: opens traces (menu, command line) and shows their summary.
// The dashboard, policies and runs panels arrive with the workbench issue.

#include <QMainWindow>

#include <string>
#include <vector>

class QPlainTextEdit;
class QLabel;

namespace schedlab::app {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    /// Loads the files as one trace and shows its summary; errors go to the status banner.
    void openTrace(const std::vector<std::string>& paths);

private:
    void chooseTrace();
    QPlainTextEdit* m_summary = nullptr;
    QLabel* m_banner = nullptr;
};

} // namespace schedlab::app
