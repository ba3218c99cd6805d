#include "comparison_widget.h"

#include "workflow/run_series.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QGridLayout>
#include <QHeaderView>
#include <QLineSeries>
#include <QTableWidget>
#include <QTextStream>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>

namespace schedlab::views {

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

void ComparisonWidget::setRuns(const std::vector<RunResult>& given)
{
    for (QChartView* v : m_charts)
        v->deleteLater();
    m_charts.clear();
    m_metrics.clear();
    m_table->clear();
    m_table->setRowCount(0);
    m_table->setColumnCount(0);
    if (given.empty())
        return;
    // Runs are compared by the figures of one mode: the first run's (the others are left out).
    std::vector<RunResult> runs;
    for (const RunResult& r : given)
        if (r.spec.mode() == given.front().spec.mode() && !r.empty())
            runs.push_back(r);
    if (runs.empty())
        return;
    const std::vector<workflow::NamedValue> metrics = workflow::summaryMetrics(runs.front());
    std::vector<std::vector<workflow::NamedValue>> values;
    for (const RunResult& r : runs)
        values.push_back(workflow::summaryMetrics(r));
    int cell = 0;
    for (std::size_t mi = 0; mi < metrics.size(); ++mi) {
        const QString name = QString::fromStdString(metrics[mi].name);
        m_metrics << name;
        auto* chart = new QChart();
        chart->setTitle(name);
        chart->legend()->setVisible(false);
        auto* series = new QBarSeries(chart);
        double top = 0;
        // One set per run so each bar takes its policy's colour.
        for (std::size_t ri = 0; ri < runs.size(); ++ri) {
            const RunResult& r = runs[ri];
            auto* set = new QBarSet(QString::fromStdString(r.label));
            const double v = values[ri][mi].value;
            *set << v;
            set->setColor(m_colourOf(r.policy));
            series->append(set);
            top = std::max(top, v);
        }
        chart->addSeries(series);
        auto* x = new QBarCategoryAxis(chart);
        x->append(QStringLiteral(" "));
        auto* y = new QValueAxis(chart);
        y->setRange(0, top > 0 ? top * 1.1 : 1);
        y->setLabelFormat("%.4g");
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        series->attachAxis(x);
        series->attachAxis(y);
        auto* view = new QChartView(chart, this);
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(150, 160);
        m_grid->addWidget(view, cell / 4, cell % 4);
        m_charts.push_back(view);
        ++cell;
    }
    if (!runs.front().isFill()) {
        // CDF of waits (completed jobs), one line per run, x log-ish via seconds + 1.
        auto* chart = new QChart();
        chart->setTitle(tr("CDF of waits (s)"));
        chart->legend()->setVisible(true);
        auto* x = new QValueAxis(chart);
        auto* y = new QValueAxis(chart);
        y->setRange(0, 1);
        double maxWait = 1;
        for (const RunResult& r : runs) {
            const std::vector<double> waits = workflow::sortedWaits(r);
            auto* line = new QLineSeries(chart);
            line->setName(QString::fromStdString(r.label));
            line->setColor(m_colourOf(r.policy));
            const std::size_t n = waits.size(), step = std::max<std::size_t>(1, n / 400);
            for (std::size_t i = 0; i < n; i += step)
                line->append(waits[i], double(i + 1) / double(n));
            if (n)
                line->append(waits.back(), 1.0);
            maxWait = std::max(maxWait, n ? waits.back() : 0.0);
            chart->addSeries(line);
        }
        x->setRange(0, maxWait);
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        for (QAbstractSeries* s : chart->series()) {
            s->attachAxis(x);
            s->attachAxis(y);
        }
        auto* view = new QChartView(chart, this);
        view->setRenderHint(QPainter::Antialiasing);
        m_grid->addWidget(view, cell / 4, cell % 4, 1, 2);
        m_charts.push_back(view);
    }
    // Summary table: a row per run, a column per metric.
    m_table->setColumnCount(int(metrics.size()) + 1);
    QStringList headers { tr("run") };
    for (const workflow::NamedValue& m : metrics)
        headers << QString::fromStdString(m.name);
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setRowCount(int(runs.size()));
    for (int row = 0; row < int(runs.size()); ++row) {
        m_table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(runs[std::size_t(row)].label)));
        for (int c = 0; c < int(metrics.size()); ++c)
            m_table->setItem(row, c + 1,
                new QTableWidgetItem(QString::number(values[std::size_t(row)][std::size_t(c)].value, 'g', 6)));
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
            const QString text = r < 0 ? m_table->horizontalHeaderItem(c)->text() : m_table->item(r, c)->text();
            cells << '"' + QString(text).replace('"', "\"\"") + '"';
        }
        out << cells.join(',') << '\n';
    }
    return out.status() == QTextStream::Ok;
}

} // namespace schedlab::views
