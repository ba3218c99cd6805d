// The Autoscaling tab (autoscale_view.h).

#include "autoscale_view.h"

#include "axis_tickers.h"
#include "legend_fit.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QSaveFile>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace schedlab::views {

namespace {

const QColor kColours[] = { QColor(0, 114, 178), QColor(213, 94, 0), QColor(0, 158, 115), QColor(204, 121, 167), QColor(230, 159, 0),
    QColor(86, 180, 233) };

double quantile(std::vector<double> v, double q)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(q * double(v.size() - 1) + 0.5))];
}

} // namespace

AutoscaleView::AutoscaleView(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* files = new QHBoxLayout;
    auto* openLoad = new QPushButton(tr("Load…"), this);
    openLoad->setToolTip(tr("Per-second request counts (.txt, .tbz2), request arrivals (CSV with TIMESTAMP) or timestamp,value series"));
    m_load = new QLabel(tr("no load file"), this);
    auto* openService = new QPushButton(tr("Service…"), this);
    m_service = new QLabel(tr("service: defaults"), this);
    for (QLabel* l : { m_load, m_service }) {
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        l->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    }
    files->addWidget(openLoad);
    files->addWidget(m_load, 3);
    files->addWidget(openService);
    files->addWidget(m_service, 2);
    layout->addLayout(files);

    buildPolicyRow(layout);
    buildRunRow(layout, files);
    buildIncidentRow(layout);

    buildResults(layout);

    connect(openLoad, &QPushButton::clicked, this, &AutoscaleView::openLoadRequested);
    connect(openService, &QPushButton::clicked, this, &AutoscaleView::openServiceRequested);
    connect(m_run, &QPushButton::clicked, this, &AutoscaleView::runRequested);
    connect(m_cancel, &QPushButton::clicked, this, &AutoscaleView::cancelRequested);
}

void AutoscaleView::buildPolicyRow(QVBoxLayout* layout)
{
    auto* controls = new QHBoxLayout;
    for (const char* p : { "hpa", "forecast", "forecast:naive" }) {
        auto* box = new QCheckBox(QString::fromLatin1(p), this);
        box->setChecked(std::string(p) != "forecast:naive");
        controls->addWidget(box);
        m_policyBoxes.emplace_back(box, p);
    }
    m_static = new QCheckBox(tr("static"), this);
    m_static->setChecked(true);
    m_staticN = new QSpinBox(this);
    m_staticN->setRange(0, 100000);
    m_staticN->setValue(4);
    controls->addWidget(m_static);
    controls->addWidget(m_staticN);
    m_learned = new QCheckBox(tr("learned"), this);
    m_learned->setEnabled(false);
    m_learned->setToolTip(tr("A learned replica policy: choose its checkpoint (train --mode autoscale) with Model…"));
    auto* openModel = new QPushButton(tr("Model…"), this);
    openModel->setToolTip(m_learned->toolTip());
    controls->addWidget(m_learned);
    controls->addWidget(openModel);
    connect(openModel, &QPushButton::clicked, this, &AutoscaleView::openModelRequested);
    controls->addStretch(1);
    layout->addLayout(controls);
}

void AutoscaleView::buildRunRow(QVBoxLayout* layout, QHBoxLayout* files)
{
    // The window and the run controls on their own row: the tab fits a 1024 px screen.
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("from h"), this));
    m_fromH = new QDoubleSpinBox(this);
    m_fromH->setRange(0, 1e6);
    m_fromH->setDecimals(1);
    controls->addWidget(m_fromH);
    auto* windowLabel = new QLabel(tr("window h"), this);
    windowLabel->setToolTip(tr("Hours to replay from 'from'; 0 = to the end of the load"));
    controls->addWidget(windowLabel);
    m_windowH = new QDoubleSpinBox(this);
    m_windowH->setRange(0, 1e6);
    m_windowH->setDecimals(1);
    controls->addWidget(m_windowH);
    m_run = new QPushButton(tr("Replay"), this);
    m_run->setToolTip(tr("Replay the load under the checked policies"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setEnabled(false);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(100);
    m_progress->setVisible(false);
    controls->addWidget(m_run);
    controls->addWidget(m_cancel);
    controls->addWidget(m_progress);
    auto* csv = new QPushButton(tr("Export CSV…"), this);
    auto* png = new QPushButton(tr("Export PNG…"), this);
    files->addWidget(csv); // on the files row: the control rows stay narrow enough for 1024 px
    files->addWidget(png);
    connect(csv, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Autoscaling Runs"), QString(), tr("CSV (*.csv)"));
        if (path.isEmpty())
            return;
        if (const Status st = exportCsv(path); !st)
            showError(QString::fromStdString(st.error().toString()));
    });
    connect(png, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Autoscaling Plots"), QString(), tr("PNG (*.png)"));
        if (!path.isEmpty() && !exportPng(path))
            showError(tr("%1: cannot write").arg(path));
    });
    controls->addStretch(1);
    layout->addLayout(controls);
}

void AutoscaleView::buildIncidentRow(QVBoxLayout* layout)
{
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);
    // Incidents of one run, and a fork of it at the chosen one under another policy.
    auto* incidents = new QHBoxLayout;
    incidents->addWidget(new QLabel(tr("Incidents"), this));
    m_incidentRun = new QComboBox(this);
    m_incidentRun->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_incidentRun->setMinimumContentsLength(8);
    incidents->addWidget(m_incidentRun);
    m_incidentList = new QComboBox(this);
    m_incidentList->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_incidentList->setMinimumContentsLength(12);
    m_incidentList->setToolTip(tr("Stretches over the SLO or short of capacity, most late requests first; choosing one zooms the plots to it"));
    incidents->addWidget(m_incidentList, 1);
    incidents->addWidget(new QLabel(tr("fork:"), this));
    m_forkPolicy = new QComboBox(this);
    m_forkPolicy->setEditable(true);
    m_forkPolicy->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_forkPolicy->setMinimumContentsLength(10);
    m_forkPolicy->addItems({ "forecast", "hpa", "forecast:naive", "static:8" });
    m_forkPolicy->setToolTip(tr("hpa, forecast, forecast:naive, static:N or learned:F.slq"));
    incidents->addWidget(m_forkPolicy);
    m_fork = new QPushButton(tr("Fork"), this);
    m_fork->setToolTip(tr("Replay the run again, switched to this policy at the incident's start, and add it to the plots"));
    m_fork->setEnabled(false);
    incidents->addWidget(m_fork);
    layout->addLayout(incidents);
    m_decision = new QLabel(this);
    m_decision->setWordWrap(true);
    m_decision->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_decision->setVisible(false);
    layout->addWidget(m_decision);
    connect(m_incidentRun, &QComboBox::currentIndexChanged, this, [this] { listIncidents(); });
    connect(m_incidentList, &QComboBox::activated, this, [this](int i) { selectIncident(i); });
    connect(m_fork, &QPushButton::clicked, this, [this] { requestFork(m_forkPolicy->currentText().trimmed().toStdString()); });
}

void AutoscaleView::buildResults(QVBoxLayout* layout)
{
    auto* split = new QSplitter(Qt::Vertical, this);
    m_summary = new QTableWidget(0, 10, split);
    m_summary->setHorizontalHeaderLabels({ tr("policy"), tr("replica-h"), tr("cost"), tr("SLO min"), tr("missed %"), tr("actions"),
        tr("lag p50 s"), tr("lag p90 s"), tr("util %"), tr("peak replicas") });
    m_summary->verticalHeader()->setVisible(false);
    m_summary->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_summary->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_summary->horizontalHeader()->setStretchLastSection(true);
    m_summary->setSortingEnabled(true);
    auto* grid = new QWidget(split);
    auto* g = new QGridLayout(grid);
    g->setContentsMargins(0, 0, 0, 0);
    const QString titles[] = { tr("load and ready capacity (req/s)"), tr("replicas"), tr("p99 latency (s)"), tr("cost, cumulative") };
    for (int i = 0; i < 4; ++i) {
        auto* p = new QCustomPlot(grid);
        p->setMinimumSize(200, 150);
        p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
        p->axisRect()->setRangeDrag(Qt::Horizontal);
        p->axisRect()->setRangeZoom(Qt::Horizontal);
        p->yAxis->setLabel(titles[i]);
        p->legend->setVisible(true);
        p->legend->setFont(QFont(font().family(), 8));
        p->axisRect()->insetLayout()->take(p->legend);
        p->plotLayout()->addElement(1, 0, p->legend);
        p->legend->setFillOrder(QCPLegend::foColumnsFirst);
        p->legend->setBorderPen(Qt::NoPen);
        p->plotLayout()->setRowStretchFactor(1, 0.001);
        keepLegendFitted(p);
        installXTicker(p->xAxis, true, 0, 0, std::nullopt);
        connect(p->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this, i] { linkRange(i); });
        g->addWidget(p, i / 2, i % 2);
        m_plots.push_back(p);
    }
    split->addWidget(m_summary);
    split->addWidget(grid);
    m_summary->setMinimumHeight(m_summary->verticalHeader()->defaultSectionSize() * 3 + m_summary->horizontalHeader()->sizeHint().height());
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    layout->addWidget(split, 1);
}

void AutoscaleView::setLoadPath(const QString& path)
{
    m_loadPath = path;
    m_load->setText(path.isEmpty() ? tr("no load file") : QFileInfo(path).fileName());
    m_load->setToolTip(path);
}

void AutoscaleView::setServicePath(const QString& path)
{
    m_servicePath = path;
    m_service->setText(path.isEmpty() ? tr("service: defaults") : tr("service: %1").arg(QFileInfo(path).fileName()));
    m_service->setToolTip(path);
}

void AutoscaleView::setModelPath(const QString& path)
{
    m_modelPath = path;
    m_learned->setEnabled(true);
    m_learned->setChecked(true);
    m_learned->setText(tr("learned (%1)").arg(QFileInfo(path).fileName()));
    m_learned->setToolTip(path);
    if (m_forkPolicy->findText("learned:" + path) < 0)
        m_forkPolicy->addItem("learned:" + path);
}

AutoscaleRequest AutoscaleView::request() const
{
    AutoscaleRequest r;
    r.loadPath = m_loadPath;
    r.servicePath = m_servicePath;
    for (const auto& [box, name] : m_policyBoxes)
        if (box->isChecked())
            r.policies.push_back(name);
    if (m_static->isChecked())
        r.policies.push_back("static:" + std::to_string(m_staticN->value()));
    if (m_learned->isChecked() && !m_modelPath.isEmpty())
        r.policies.push_back("learned:" + m_modelPath.toStdString());
    r.fromS = m_fromH->value() * 3600;
    r.durationS = m_windowH->value() * 3600;
    return r;
}

void AutoscaleView::setProgress(double fraction)
{
    const bool running = fraction >= 0;
    m_progress->setVisible(running);
    m_progress->setValue(running ? int(fraction * 1000) : 0);
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
}

void AutoscaleView::showError(const QString& text)
{
    m_status->setText(QStringLiteral("<span style='color:#b3261e'>%1</span>").arg(text.toHtmlEscaped()));
}

QString AutoscaleView::statusText() const { return m_status->text(); }

void AutoscaleView::showResults(const autoscale::LoadSeries& load, const autoscale::ServiceConfig& service,
    const std::vector<autoscale::AutoscaleResult>& results)
{
    m_loadName = load.name;
    m_loadSource = load.source;
    m_loadRequests = load.total();
    m_loadSteps = load.requests.size();
    m_shownService = service;
    m_results = results;
    render();
    {
        const QSignalBlocker block(m_incidentRun);
        m_incidentRun->clear();
        for (const autoscale::AutoscaleResult& r : m_results)
            m_incidentRun->addItem(QString::fromStdString(r.policy));
    }
    listIncidents();
}

void AutoscaleView::addFork(const autoscale::AutoscaleResult& result, double atS)
{
    m_results.push_back(result);
    render();
    {
        const QSignalBlocker block(m_incidentRun);
        m_incidentRun->addItem(QString::fromStdString(result.policy));
    }
    zoomTo(atS, atS + 3600);
}

namespace {
/// "12 d 14:20" for seconds from the load's start.
QString dayTime(double at)
{
    return QStringLiteral("%1 d %2:%3")
        .arg(int(at / 86400))
        .arg(int(std::fmod(at, 86400) / 3600), 2, 10, QChar('0'))
        .arg(int(std::fmod(at, 3600) / 60), 2, 10, QChar('0'));
}
} // namespace

void AutoscaleView::listIncidents()
{
    m_incidents.clear();
    m_incidentList->clear();
    const int run = m_incidentRun->currentIndex();
    if (run >= 0 && std::size_t(run) < m_results.size())
        m_incidents = autoscale::findIncidents(m_results[std::size_t(run)]);
    for (std::size_t i = 0; i < m_incidents.size() && i < 200; ++i) {
        const double at = m_incidents[i].fromS;
        m_incidentList->addItem(QStringLiteral("%1 — %2").arg(dayTime(at), QString::fromStdString(m_incidents[i].what())));
    }
    if (m_incidents.empty())
        m_incidentList->addItem(tr("no incident"));
    m_fork->setEnabled(!m_incidents.empty());
}

void AutoscaleView::selectIncident(int i)
{
    if (i < 0 || std::size_t(i) >= m_incidents.size())
        return;
    m_incidentList->setCurrentIndex(i);
    const autoscale::AutoscaleIncident& inc = m_incidents[std::size_t(i)];
    zoomTo(inc.fromS - 1800, inc.toS + 1800);
    m_decision->setVisible(false);
    emit decisionRequested(m_incidentRun->currentIndex(), inc.fromS);
}

void AutoscaleView::showDecision(const autoscale::AutoscaleDecision& d)
{
    if (d.t < 0) {
        m_decision->setVisible(false);
        return;
    }
    QString text = tr("Decision at %1: %2").arg(dayTime(d.t), QString::fromStdString(d.what()));
    if (!d.values.empty()) {
        QStringList qs;
        for (const autoscale::ActionValue& v : d.values) {
            QString one = QString("%1%2: %3").arg(v.delta > 0 ? "+" : "").arg(v.delta).arg(double(v.q), 0, 'f', 3);
            if (!v.allowed)
                one += tr(" (masked)");
            else if (d.current + v.delta == d.desired)
                one = "<b>" + one + "</b>";
            qs << one;
        }
        text += "<br>" + tr("Q-values: ") + qs.join(", ");
    }
    m_decision->setText(text);
    m_decision->setVisible(true);
}

QString AutoscaleView::decisionText() const
{
    return m_decision->isVisible() ? m_decision->text() : QString();
}

void AutoscaleView::requestFork(const std::string& policy)
{
    const int run = m_incidentRun->currentIndex();
    const int i = std::max(0, m_incidentList->currentIndex());
    if (run < 0 || std::size_t(i) >= m_incidents.size())
        return;
    emit forkRequested(run, m_incidents[std::size_t(i)].fromS, policy);
}

void AutoscaleView::zoomTo(double fromS, double toS)
{
    m_plots[0]->xAxis->setRange(std::max(0.0, fromS) / 3600.0, toS / 3600.0); // linked: the others follow
    for (QCustomPlot* p : m_plots)
        p->replot(QCustomPlot::rpQueuedReplot);
}

void AutoscaleView::render()
{
    const autoscale::ServiceConfig& service = m_shownService;
    const std::vector<autoscale::AutoscaleResult>& results = m_results;
    m_status->setText(tr("%1: %2 s of load (%3), %4 requests. Service %5 ms, %6 req/s per replica at %7 %, start-up %8 s, SLO p99 %9 ms.")
                          .arg(QString::fromStdString(m_loadName))
                          .arg(m_loadSteps)
                          .arg(QString::fromStdString(m_loadSource))
                          .arg(m_loadRequests, 0, 'f', 0)
                          .arg(service.serviceTimeS * 1000, 0, 'g', 4)
                          .arg(service.capacityRps(), 0, 'g', 3)
                          .arg(service.targetUtilization * 100, 0, 'g', 3)
                          .arg(service.startupDelayS, 0, 'g', 4)
                          .arg(service.sloP99S * 1000, 0, 'g', 5));
    m_summary->setSortingEnabled(false);
    m_summary->setRowCount(int(results.size()));
    auto num = [](double v, int decimals) {
        auto* item = new QTableWidgetItem;
        item->setData(Qt::DisplayRole, QString::number(v, 'f', decimals).toDouble());
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        return item;
    };
    for (int i = 0; i < int(results.size()); ++i) {
        const autoscale::AutoscaleResult& r = results[std::size_t(i)];
        auto* name = new QTableWidgetItem(QString::fromStdString(r.policy));
        name->setForeground(kColours[i % 6]);
        m_summary->setItem(i, 0, name);
        m_summary->setItem(i, 1, num(r.replicaHours, 1));
        m_summary->setItem(i, 2, num(r.cost, 2));
        m_summary->setItem(i, 3, num(r.sloViolationMinutes, 0));
        m_summary->setItem(i, 4, num(r.missedShare * 100, 3));
        m_summary->setItem(i, 5, num(r.scalingActions, 0));
        m_summary->setItem(i, 6, num(quantile(r.scaleUpLagsS, 0.5), 0));
        m_summary->setItem(i, 7, num(quantile(r.scaleUpLagsS, 0.9), 0));
        m_summary->setItem(i, 8, num(r.meanUtilization * 100, 1));
        m_summary->setItem(i, 9, num(r.maxReplicas, 0));
    }
    m_summary->setSortingEnabled(true);

    for (QCustomPlot* p : m_plots) {
        p->clearGraphs();
        p->clearItems();
    }
    auto graph = [](QCustomPlot* p, const QString& name, QColor c, Qt::PenStyle style = Qt::SolidLine) {
        QCPGraph* g = p->addGraph();
        g->setName(name);
        g->setPen(QPen(c, 1.2, style));
        g->setAdaptiveSampling(true);
        return g;
    };
    // The load itself once (per minute, as the results' series).
    if (!results.empty()) {
        QCPGraph* g = graph(m_plots[0], tr("load"), QColor(60, 60, 60));
        for (const autoscale::MinutePoint& p : results.front().series)
            g->addData(p.t / 3600.0, p.arrivalRate);
    }
    for (int i = 0; i < int(results.size()); ++i) {
        const autoscale::AutoscaleResult& r = results[std::size_t(i)];
        const QColor c = kColours[i % 6];
        const QString name = QString::fromStdString(r.policy);
        const Qt::PenStyle style = r.policy.find(" -> ") != std::string::npos ? Qt::DashLine : Qt::SolidLine; // forks dashed
        QCPGraph* capacity = graph(m_plots[0], name, c, style);
        QCPGraph* replicas = graph(m_plots[1], name, c, style);
        QCPGraph* p99 = graph(m_plots[2], name, c, style);
        QCPGraph* cost = graph(m_plots[3], name, c, style);
        double spent = 0;
        for (const autoscale::MinutePoint& p : r.series) {
            const double x = p.t / 3600.0;
            capacity->addData(x, p.capacityRps);
            replicas->addData(x, p.replicas);
            p99->addData(x, std::min<double>(p.p99S, 1e6));
            spent += p.replicas * 60.0 / 3600.0 * service.costPerReplicaHour;
            cost->addData(x, spent);
        }
    }
    // The SLO and the user's pinned windows.
    auto* slo = new QCPItemStraightLine(m_plots[2]);
    slo->setPen(QPen(QColor(179, 38, 30), 1, Qt::DashLine));
    slo->point1->setCoords(0, service.sloP99S);
    slo->point2->setCoords(1, service.sloP99S);
    for (const autoscale::OverrideWindow& w : service.overrides) {
        auto* rect = new QCPItemRect(m_plots[1]);
        rect->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
        rect->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
        rect->topLeft->setCoords(w.fromS / 3600.0, 0);
        rect->bottomRight->setCoords(w.toS / 3600.0, 1);
        rect->setPen(Qt::NoPen);
        rect->setBrush(QColor(230, 159, 0, 50));
    }
    for (QCustomPlot* p : m_plots) {
        p->rescaleAxes();
        p->yAxis->setRangeLower(0);
        p->yAxis->setRangeUpper(p->yAxis->range().upper * 1.1 + 1e-9);
    }
    // p99 can spike without bound when replicas run short: show up to 5 x the SLO.
    m_plots[2]->yAxis->setRange(0, std::max(service.sloP99S * 5, 1e-3));
    for (QCustomPlot* p : m_plots) {
        fitLegendColumns(p);
        // Twice: the tickers measure the axis from the layout the first replot makes.
        p->replot();
        p->replot(QCustomPlot::rpQueuedReplot);
    }
}

Status AutoscaleView::exportCsv(const QString& path) const
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::Io, "cannot write: " + f.errorString().toStdString(), path.toStdString());
    QByteArray out;
    for (const autoscale::AutoscaleResult& r : m_results)
        out += QStringLiteral("# %1: replica-hours %2, cost %3, SLO-violation minutes %4, missed share %5, scaling actions %6\n")
                   .arg(QString::fromStdString(r.policy))
                   .arg(r.replicaHours, 0, 'g', 10)
                   .arg(r.cost, 0, 'g', 10)
                   .arg(r.sloViolationMinutes)
                   .arg(r.missedShare, 0, 'g', 10)
                   .arg(r.scalingActions)
                   .toUtf8();
    out += "policy,t_s,arrival_rate,ready,replicas,capacity_rps,p99_s,missed_share,backlog\n";
    for (const autoscale::AutoscaleResult& r : m_results) {
        const QByteArray name = '"' + QByteArray::fromStdString(r.policy).replace('"', "\"\"") + '"';
        for (const autoscale::MinutePoint& p : r.series)
            out += name + ',' + QByteArray::number(p.t, 'g', 12) + ',' + QByteArray::number(p.arrivalRate, 'g', 8) + ','
                + QByteArray::number(p.ready, 'g', 8) + ',' + QByteArray::number(p.replicas, 'g', 8) + ','
                + QByteArray::number(p.capacityRps, 'g', 8) + ',' + QByteArray::number(p.p99S, 'g', 8) + ','
                + QByteArray::number(p.missedShare, 'g', 8) + ',' + QByteArray::number(p.backlog, 'g', 8) + '\n';
    }
    if (f.write(out) != out.size() || !f.commit())
        return makeError(ErrorCode::Io, "cannot write: " + f.errorString().toStdString(), path.toStdString());
    return {};
}

bool AutoscaleView::exportPng(const QString& path)
{
    // The grid of plots as shown (the widget holding them).
    QWidget* grid = m_plots.front()->parentWidget();
    return grid->grab().save(path, "PNG");
}

void AutoscaleView::linkRange(int from)
{
    if (m_linking)
        return;
    m_linking = true;
    const QCPRange r = m_plots[std::size_t(from)]->xAxis->range();
    for (int i = 0; i < int(m_plots.size()); ++i)
        if (i != from) {
            m_plots[std::size_t(i)]->xAxis->setRange(r);
            m_plots[std::size_t(i)]->replot(QCustomPlot::rpQueuedReplot);
        }
    m_linking = false;
}

} // namespace schedlab::views
