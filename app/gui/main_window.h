#pragma once
// The workbench main window: Trace, Policies and Runs docks around the dashboard. Runs execute
// off the GUI thread (RunController); errors show in a non-modal banner.

#include "run_controller.h"
#include "run_result.h"

#include <QMainWindow>

#include <memory>
#include <string>
#include <vector>

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QComboBox;
class QLineEdit;
class QTableView;
class QTabWidget;
class QSortFilterProxyModel;

namespace schedlab::trace {
struct Trace;
}
namespace schedlab::views {
class ComparisonWidget;
class DashboardWidget;
class JobTableModel;
} // namespace schedlab::views

namespace schedlab::app {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;
    /// Loads the files as one trace; errors go to the banner. Returns success.
    bool openTrace(const std::vector<std::string>& paths);
    /// Runs the checked policies (or `policies` when given) on the open trace.
    void runPolicies(const std::vector<std::string>& policies = {});
    views::DashboardWidget* dashboard() const { return m_dashboard; }
    views::ComparisonWidget* comparison() const { return m_comparison; }
    const std::vector<views::RunResult>& results() const { return m_results; }
    QString bannerText() const;
    /// 0 dashboard, 1 comparison.
    void showTab(int index);

signals:
    /// All runs of the last batch are done (or it was cancelled / failed).
    void batchDone();

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

private:
    void buildDocks();
    void buildMenus();
    void chooseTrace();
    void showError(const QString& text);
    void onRunFinished(const views::RunResult& r);
    void refreshDashboard();
    void exportDashboard(const QString& kind);

    views::DashboardWidget* m_dashboard = nullptr;
    views::ComparisonWidget* m_comparison = nullptr;
    QTabWidget* m_tabs = nullptr;
    views::JobTableModel* m_jobs = nullptr;
    QSortFilterProxyModel* m_jobsProxy = nullptr;
    QPlainTextEdit* m_summary = nullptr;
    QListWidget* m_policyList = nullptr;
    QListWidget* m_runList = nullptr;
    QComboBox* m_mode = nullptr;
    QComboBox* m_queue = nullptr;
    QComboBox* m_backfill = nullptr;
    QLineEdit* m_seeds = nullptr;
    QLabel* m_banner = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
    QLabel* m_status = nullptr;
    RunController* m_runner = nullptr;
    std::shared_ptr<const trace::Trace> m_trace;
    QString m_traceName;
    std::vector<views::RunResult> m_results;
};

} // namespace schedlab::app
