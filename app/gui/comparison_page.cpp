#include "comparison_page.h"

#include "comparison_widget.h"

#include <QFileDialog>
#include <QVBoxLayout>

namespace schedlab::app {

ComparisonPage::ComparisonPage(std::function<QColor(const std::string&)> colourOf, QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_comparison = new views::ComparisonWidget(std::move(colourOf), this);
    layout->addWidget(m_comparison);
}

void ComparisonPage::setRuns(const std::vector<views::RunResult>& runs) { m_comparison->setRuns(runs); }

void ComparisonPage::setUtilization(workflow::UtilizationKind kind) { m_comparison->setUtilization(kind); }

void ComparisonPage::exportSummary()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export summary"), QString(), tr("CSV (*.csv)"));
    if (!path.isEmpty() && !m_comparison->exportSummaryCsv(path))
        emit errorOccurred(tr("Could not write %1").arg(path));
}

} // namespace schedlab::app
