#include "comparison_widget.h"

#include <qcustomplot.h>

#include <QFile>
#include <QGridLayout>
#include <QHeaderView>
#include <QTableWidget>
#include <QTextStream>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace schedlab::views {

// The runs of one policy (colour key) and their values of one figure.
struct ComparisonWidget::Group {
    std::string policy;
    std::vector<double> values;
    double mean() const
    {
        double s = 0;
        for (double v : values)
            s += v;
        return values.empty() ? 0 : s / double(values.size());
    }
    double min() const { return values.empty() ? 0 : *std::min_element(values.begin(), values.end()); }
    double max() const { return values.empty() ? 0 : *std::max_element(values.begin(), values.end()); }
};

namespace {

using Group = ComparisonWidget::Group;

QString number(double v) { return QString::number(v, 'g', 6); }

// "93.2 [92.8, 93.6]": a policy's mean with its range, as the summary table shows it.
QString meanText(const Group& g) { return QStringLiteral("%1 [%2, %3]").arg(number(g.mean()), number(g.min()), number(g.max())); }

// Policies in the order of their first run.
std::vector<std::string> policiesOf(const std::vector<RunResult>& runs)
{
    std::vector<std::string> out;
    for (const RunResult& r : runs)
        if (std::find(out.begin(), out.end(), r.policy) == out.end())
            out.push_back(r.policy);
    return out;
}

// A policy's name under its bar: the tab compares runs of one mode, so a fill run's " (fill)"
// (part of its colour key) says nothing there and only crowds its neighbours.
QString barLabel(const std::string& policy)
{
    const std::string suffix = " (fill)";
    const bool fill = policy.size() > suffix.size() && policy.compare(policy.size() - suffix.size(), suffix.size(), suffix) == 0;
    return QString::fromStdString(fill ? policy.substr(0, policy.size() - suffix.size()) : policy);
}

} // namespace

ComparisonWidget::ComparisonWidget(std::function<QColor(const std::string&)> colourOf, QWidget* parent)
    : QWidget(parent)
    , m_colourOf(std::move(colourOf))
{
    auto* layout = new QVBoxLayout(this);
    m_grid = new QGridLayout();
    layout->addLayout(m_grid, 3);
    m_table = new QTableWidget(this);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->setVisible(false);
    layout->addWidget(m_table, 1);
}

QStringList ComparisonWidget::metricNames() const { return m_metrics; }

void ComparisonWidget::setUtilization(workflow::UtilizationKind kind)
{
    m_util = kind;
    rebuild();
}

void ComparisonWidget::setRuns(const std::vector<RunResult>& given)
{
    // Runs are compared by the figures of one mode: the first run's (the others are left out).
    m_runs.clear();
    for (const RunResult& r : given)
        if (!given.empty() && r.spec.mode() == given.front().spec.mode() && !r.empty())
            m_runs.push_back(r);
    rebuild();
}

QCustomPlot* ComparisonWidget::newChart(const QString& title)
{
    auto* p = new QCustomPlot(this);
    p->setMinimumSize(150, 160);
    p->plotLayout()->insertRow(0);
    // Long titles break before their unit: a narrow chart must not cut them.
    QString shown = title;
    if (shown.size() > 18 && shown.lastIndexOf(" (") > 0)
        shown.replace(shown.lastIndexOf(" ("), 2, QStringLiteral("\n("));
    p->plotLayout()->addElement(0, 0, new QCPTextElement(p, shown, QFont(font().family(), 9, QFont::Bold)));
    p->yAxis->setNumberFormat("g");
    p->yAxis->setNumberPrecision(4);
    p->setObjectName(title);
    m_grid->addWidget(p, int(m_charts.size()) / 4, int(m_charts.size()) % 4);
    m_charts.push_back(p);
    return p;
}

void ComparisonWidget::rebuild()
{
    for (QCustomPlot* p : m_charts) {
        m_grid->removeWidget(p);
        p->hide();
        p->deleteLater();
    }
    m_charts.clear();
    m_metrics.clear();
    m_table->clear();
    m_table->setRowCount(0);
    m_table->setColumnCount(0);
    if (m_runs.empty())
        return;
    // Evictions, migrations and work lost appear once any compared run made room.
    const bool room = std::any_of(m_runs.begin(), m_runs.end(), [](const RunResult& r) { return workflow::madeRoom(r); });
    const std::vector<workflow::NamedValue> metrics = workflow::summaryMetrics(m_runs.front(), m_util, room);
    std::vector<std::vector<workflow::NamedValue>> values;
    for (const RunResult& r : m_runs)
        values.push_back(workflow::summaryMetrics(r, m_util, room));
    const std::vector<std::string> policies = policiesOf(m_runs);
    // groups[metric][policy]
    std::vector<std::vector<Group>> groups(metrics.size());
    for (std::size_t mi = 0; mi < metrics.size(); ++mi) {
        for (const std::string& p : policies)
            groups[mi].push_back(Group { p, {} });
        for (std::size_t ri = 0; ri < m_runs.size(); ++ri) {
            const double v = values[ri][mi].value;
            if (std::isfinite(v) && v >= 0) // -1: not measured (energy without a power model)
                groups[mi][std::size_t(std::find(policies.begin(), policies.end(), m_runs[ri].policy) - policies.begin())].values.push_back(v);
        }
    }

    addMetricCharts(metrics, groups, policies.size());
    if (!m_runs.front().isFill())
        addWaitCdf();
    fillTable(metrics, values, groups, policies);
}

void ComparisonWidget::addMetricCharts(const std::vector<workflow::NamedValue>& metrics, const std::vector<std::vector<Group>>& groups, std::size_t policyCount)
{
    for (std::size_t mi = 0; mi < metrics.size(); ++mi) {
        const QString name = QString::fromStdString(metrics[mi].name);
        m_metrics << name;
        QCustomPlot* p = newChart(name);
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        double lo = 1e300, hi = -1e300;
        int longest = 0;
        for (std::size_t pi = 0; pi < groups[mi].size(); ++pi) {
            const Group& g = groups[mi][pi];
            ticker->addTick(double(pi), barLabel(g.policy));
            longest = std::max(longest, int(barLabel(g.policy).size()));
            if (g.values.empty())
                continue;
            auto* bars = new QCPBars(p->xAxis, p->yAxis);
            bars->setWidth(0.6);
            bars->setData({ double(pi) }, { g.mean() });
            const QColor c = m_colourOf(g.policy);
            bars->setPen(QPen(c.darker(130)));
            bars->setBrush(c);
            bars->setName(QString::fromStdString(g.policy));
            if (g.values.size() > 1) { // the seeds' range
                auto* whisker = new QCPErrorBars(p->xAxis, p->yAxis);
                whisker->setDataPlottable(bars);
                whisker->setData({ g.mean() - g.min() }, { g.max() - g.mean() });
                whisker->setPen(QPen(Qt::black));
            }
            lo = std::min(lo, g.min());
            hi = std::max(hi, g.max());
        }
        p->xAxis->setTicker(ticker);
        p->xAxis->grid()->setVisible(false); // a line through the first bar otherwise
        // Names side by side would run together: three or more, or two longer than a chart's share
        // at its usual width (about 9 characters each, "k8s-default").
        p->xAxis->setTickLabelRotation(policyCount > 2 || longest > 11 ? 35 : 0);
        p->xAxis->setRange(-0.6, double(policyCount) - 0.4);
        if (lo > hi) { // nothing measured
            p->yAxis->setRange(0, 1);
            auto* note = new QCPItemText(p);
            note->position->setType(QCPItemPosition::ptAxisRectRatio);
            note->position->setCoords(0.5, 0.5);
            note->setText(tr("not measured\n(no power model)"));
            continue;
        }
        if (hi == 0) { // every policy 0 (no failures, no waits): say so, an empty chart looks broken
            p->yAxis->setRange(0, 1);
            auto* note = new QCPItemText(p);
            note->position->setType(QCPItemPosition::ptAxisRectRatio);
            note->position->setCoords(0.5, 0.5);
            note->setText(tr("0 for every policy"));
            continue;
        }
        // Fitted to the values, so a difference of a few points shows (but never narrower than 5 % of
        // their size: equal values must not read as a difference); from 0 when that is close.
        const double span = std::max(hi - lo, 0.05 * std::max(std::abs(hi), std::abs(lo)));
        double lower = lo - 0.3 * span;
        if (lo >= 0 && lower < span)
            lower = 0;
        p->yAxis->setRange(lower, hi + 0.2 * span);
        p->replot(QCustomPlot::rpQueuedReplot);
    }
}

void ComparisonWidget::addWaitCdf()
{
    // CDF of waits (units that started), a line per run, legend below the axes.
    QCustomPlot* p = newChart(tr("CDF of waits"));
    m_grid->removeWidget(p);
    m_grid->addWidget(p, int(m_charts.size() - 1) / 4, int(m_charts.size() - 1) % 4, 1, 2);
    p->xAxis->setLabel(tr("wait (s)"));
    p->yAxis->setLabel(tr("fraction of started jobs"));
    p->legend->setVisible(true);
    p->legend->setFont(QFont(font().family(), 8));
    p->axisRect()->insetLayout()->take(p->legend);
    p->plotLayout()->addElement(2, 0, p->legend);
    p->legend->setFillOrder(QCPLegend::foColumnsFirst);
    p->legend->setWrap(3);
    p->plotLayout()->setRowStretchFactor(2, 0.001);
    double maxWait = 1;
    for (const RunResult& r : m_runs) {
        const std::vector<double> waits = workflow::sortedWaits(r);
        QVector<double> x, y;
        const std::size_t n = waits.size(), step = std::max<std::size_t>(1, n / 400);
        for (std::size_t i = 0; i < n; i += step) {
            x.push_back(waits[i]);
            y.push_back(double(i + 1) / double(n));
        }
        if (n) {
            x.push_back(waits.back());
            y.push_back(1.0);
            maxWait = std::max(maxWait, waits.back());
        }
        QCPGraph* g = p->addGraph();
        g->setName(QString::fromStdString(r.label));
        g->setPen(QPen(m_colourOf(r.policy), 1.5));
        g->setData(x, y, true);
    }
    p->xAxis->setRange(0, maxWait);
    p->yAxis->setRange(0, 1.02);
    p->replot(QCustomPlot::rpQueuedReplot);
}

void ComparisonWidget::fillTable(const std::vector<workflow::NamedValue>& metrics, const std::vector<std::vector<workflow::NamedValue>>& values,
    const std::vector<std::vector<Group>>& groups, const std::vector<std::string>& policies)
{
    // Summary table: a row per run, then a mean [min, max] row per policy with several runs.
    m_table->setColumnCount(int(metrics.size()) + 1);
    QStringList headers { tr("run") };
    for (const workflow::NamedValue& m : metrics)
        headers << QString::fromStdString(m.name);
    m_table->setHorizontalHeaderLabels(headers);
    int multi = 0;
    for (const Group& g : groups.front())
        multi += g.values.size() > 1;
    m_table->setRowCount(int(m_runs.size()) + multi);
    for (int row = 0; row < int(m_runs.size()); ++row) {
        m_table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(m_runs[std::size_t(row)].label)));
        for (int c = 0; c < int(metrics.size()); ++c) {
            const double v = values[std::size_t(row)][std::size_t(c)].value;
            m_table->setItem(row, c + 1, new QTableWidgetItem(v < 0 ? tr("not measured") : number(v)));
        }
    }
    int row = int(m_runs.size());
    for (std::size_t pi = 0; pi < policies.size(); ++pi) {
        if (groups.front()[pi].values.size() < 2)
            continue;
        auto* head = new QTableWidgetItem(tr("%1: mean of %2 [min, max]").arg(QString::fromStdString(policies[pi])).arg(groups.front()[pi].values.size()));
        QFont bold = head->font();
        bold.setBold(true);
        head->setFont(bold);
        m_table->setItem(row, 0, head);
        for (std::size_t mi = 0; mi < metrics.size(); ++mi)
            m_table->setItem(row, int(mi) + 1,
                new QTableWidgetItem(groups[mi][pi].values.empty() ? tr("not measured") : meanText(groups[mi][pi])));
        ++row;
    }
    m_table->resizeColumnsToContents();
}

bool ComparisonWidget::exportSummaryCsv(const QString& path) const
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
        return false;
    QTextStream out(&f);
    for (int r = -1; r < m_table->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m_table->columnCount(); ++c) {
            const QTableWidgetItem* item = r < 0 ? m_table->horizontalHeaderItem(c) : m_table->item(r, c);
            cells << '"' + QString(item ? item->text() : QString()).replace('"', "\"\"") + '"';
        }
        out << cells.join(',') << '\n';
    }
    return out.status() == QTextStream::Ok;
}

} // namespace schedlab::views
