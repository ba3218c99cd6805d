#include "dashboard_page.h"

#include "dashboard_widget.h"
#include "heatmap_widget.h"
#include "trace_overview_widget.h"

#include "workflow/run_args.h"

#include <QFileDialog>
#include <QVBoxLayout>

namespace schedlab::app {

DashboardPage::DashboardPage(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_overview = new views::TraceOverviewWidget(this);
    m_overview->setVisible(false);
    m_dashboard = new views::DashboardWidget(this);
    layout->addWidget(m_overview);
    layout->addWidget(m_dashboard, 1);
    connect(m_overview, &views::TraceOverviewWidget::windowChanged, this,
        [this] { emit statusMessage(m_overview->windowText() + tr(" — Run to replay it")); });
    connect(m_dashboard, &views::DashboardWidget::utilizationChanged, this,
        [this](views::DashboardWidget::Utilization u) { emit utilizationChanged(workflow::UtilizationKind(int(u))); });
    connect(m_dashboard, &views::DashboardWidget::cursorClicked, this, [this](double x) { emit cursorClicked(x, clickedRun()); });
}

int DashboardPage::clickedRun() const
{
    // The heatmap's run (else the first shown) when it can be replayed (not a fork).
    const auto& shown = m_dashboard->runs();
    const int h = m_dashboard->heatmap()->currentRun();
    if (h >= 0 && std::size_t(h) < shown.size() && !shown[std::size_t(h)].fork)
        return shown[std::size_t(h)].id;
    for (const views::RunResult& r : shown)
        if (!r.fork)
            return r.id;
    return -1;
}

void DashboardPage::setLoadProfile(const trace::LoadProfile& profile, std::optional<double> epochUnixS)
{
    m_overview->setProfile(profile, workflow::defaultReplayWindow(profile), epochUnixS);
    m_overview->setVisible(!profile.empty());
    m_dashboard->setTimeOrigin(profile.empty() ? std::nullopt : std::optional<double>(profile.startS), epochUnixS);
}

void DashboardPage::setFillMode(bool fill) { m_overview->setFillMode(fill); }

std::optional<trace::TimeSpan> DashboardPage::replayWindow() const { return m_overview->window(); }

void DashboardPage::setRuns(const std::vector<views::RunResult>& runs)
{
    m_dashboard->setRuns(runs);
    emit runsShown(m_dashboard->runs());
}

QColor DashboardPage::colourOf(const std::string& key) { return m_dashboard->colourOf(key); }

void DashboardPage::reserveColours(const sim::RunSpec& spec, const std::vector<std::string>& policies)
{
    for (const std::string& p : policies) {
        sim::RunSpec keyed = spec;
        keyed.policy = p;
        m_dashboard->colourOf(views::colourKey(keyed));
    }
}

bool DashboardPage::showCpuMetrics()
{
    if (m_dashboard->utilization() != views::DashboardWidget::Utilization::Gpu)
        return false;
    m_dashboard->setUtilization(views::DashboardWidget::Utilization::Cpu);
    m_dashboard->setFragmentation(views::DashboardWidget::Fragmentation::Cpu);
    return true;
}

void DashboardPage::setCursorX(double x) { m_dashboard->setCursorX(x); }

void DashboardPage::exportAs(const QString& kind)
{
    const QString filter = kind == "png" ? tr("PNG (*.png)") : kind == "pdf" ? tr("PDF (*.pdf)") : tr("CSV (*.csv)");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export"), QString(), filter);
    if (path.isEmpty())
        return;
    const bool ok = kind == "png" ? m_dashboard->exportPng(path)
        : kind == "pdf"           ? m_dashboard->exportPdf(path)
                                  : m_dashboard->exportVisibleCsv(path);
    if (!ok)
        emit errorOccurred(tr("Could not write %1").arg(path));
    else
        emit statusMessage(tr("Exported %1").arg(path));
}

} // namespace schedlab::app
