#pragma once
// The Dashboard tab: the trace-overview strip (the window timed replays use) above the plots of
// the shown runs. It says where a click on the plots lands (for the incident replay) and exports
// the plots (File > Export Dashboard).

#include "run_result.h"

#include "trace/load_profile.h"
#include "workflow/run_series.h"

#include <QWidget>

#include <optional>
#include <string>
#include <vector>

namespace schedlab::views {
class DashboardWidget;
class TraceOverviewWidget;
} // namespace schedlab::views

namespace schedlab::app {

class DashboardPage : public QWidget {
    Q_OBJECT
public:
    explicit DashboardPage(QWidget* parent = nullptr);
    views::DashboardWidget* dashboard() const { return m_dashboard; }
    views::TraceOverviewWidget* overview() const { return m_overview; }
    /// The open trace's load profile: the strip with its default window, the time axes' origin.
    void setLoadProfile(const trace::LoadProfile& profile, std::optional<double> epochUnixS);
    /// The strip marks the window as unused by fill experiments.
    void setFillMode(bool fill);
    /// The strip's window for timed replays (none: the whole trace).
    std::optional<trace::TimeSpan> replayWindow() const;
    /// Shows these runs; runsShown follows with the ones the plots kept.
    void setRuns(const std::vector<views::RunResult>& runs);
    /// The colour of a policy (or colour key), the same in every tab and dock.
    QColor colourOf(const std::string& key);
    /// Gives the runs of `policies` under `spec` their colours now, in this order (not in the
    /// order the runs happen to finish).
    void reserveColours(const sim::RunSpec& spec, const std::vector<std::string>& policies);
    /// For a trace whose GPUs are not what it is about: CPU utilization and fragmentation. False
    /// when the plots did not show GPU utilization.
    bool showCpuMetrics();
    /// Asks for a file and writes the plots as "png" or "pdf", or the visible range as "csv".
    void exportAs(const QString& kind);
    /// Moves the plots' cursor (dashboard x units).
    void setCursorX(double x);

signals:
    /// The runs the plots show (one x-axis kind).
    void runsShown(const std::vector<schedlab::views::RunResult>& runs);
    /// The user picked the utilization the plots show.
    void utilizationChanged(schedlab::workflow::UtilizationKind kind);
    /// A click on a plot or the heatmap at `x`, about run `runId` (a session id; -1 = none shown).
    void cursorClicked(double x, int runId);
    void statusMessage(const QString& text);
    void errorOccurred(const QString& text);

private:
    int clickedRun() const;

    views::DashboardWidget* m_dashboard = nullptr;
    views::TraceOverviewWidget* m_overview = nullptr;
};

} // namespace schedlab::app
