#include "trace_summary_view.h"

#include "trace/trace_summary.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHeaderView>
#include <QPlainTextEdit>
#include <QVBoxLayout>

#include <algorithm>

namespace schedlab::views {

namespace {

QString num(int64_t n) { return QString::number(n); }

QString spanText(double seconds)
{
    if (seconds >= 2 * 86400)
        return QObject::tr("%1 days").arg(seconds / 86400, 0, 'f', 1);
    if (seconds >= 2 * 3600)
        return QObject::tr("%1 h").arg(seconds / 3600, 0, 'f', 1);
    if (seconds >= 120)
        return QObject::tr("%1 min").arg(seconds / 60, 0, 'f', 1);
    return QObject::tr("%1 s").arg(seconds, 0, 'f', 0);
}

} // namespace

TraceSummaryView::TraceSummaryView(QWidget* parent)
    : QTreeWidget(parent)
{
    setObjectName("traceSummary");
    setColumnCount(2);
    setHeaderHidden(true);
    setRootIsDecorated(true);
    setUniformRowHeights(true);
    setWordWrap(false);
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    header()->setStretchLastSection(true);
    setToolTip(tr("The trace at a glance; expand a row for its details. Right-click for the full text."));
    setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* show = new QAction(tr("Show full text…"), this);
    show->setObjectName("summaryShowFull");
    connect(show, &QAction::triggered, this, &TraceSummaryView::showFullText);
    auto* copy = new QAction(tr("Copy full text"), this);
    copy->setObjectName("summaryCopyFull");
    connect(copy, &QAction::triggered, this, [this] { QApplication::clipboard()->setText(m_text); });
    addAction(show);
    addAction(copy);
}

QTreeWidgetItem* TraceSummaryView::addRow(const QString& key, const QString& value, QTreeWidgetItem* parent)
{
    auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(this);
    item->setText(0, key);
    item->setText(1, value);
    item->setToolTip(1, value);
    return item;
}

void TraceSummaryView::setSummary(const trace::TraceSummary& s, const QString& clusterModel)
{
    m_text = QString::fromStdString(trace::toText(s));
    if (!clusterModel.isEmpty())
        m_text.prepend(tr("cluster model: %1\n").arg(clusterModel));
    clear();
    QTreeWidgetItem* format = addRow(tr("format"), QString::fromStdString(s.format));
    for (const trace::LoadedFile& f : s.files)
        addRow(tr("file"), QString::fromStdString(f.path), format);
    addRow(tr("unit"), QString::fromStdString(s.cpuUnit), format);
    if (!clusterModel.isEmpty())
        addRow(tr("cluster"), clusterModel);
    QTreeWidgetItem* nodes = addRow(tr("nodes"), s.gpuNodes > 0 ? tr("%1 (%2 with GPUs)").arg(num(s.nodes), num(s.gpuNodes)) : num(s.nodes));
    addRow(tr("CPU"), tr("%1 cores").arg(double(s.totalCpuMilli) / 1000, 0, 'g', 6), nodes);
    addRow(tr("memory"), tr("%1 GiB").arg(double(s.totalMemMiB) / 1024, 0, 'f', 0), nodes);
    QTreeWidgetItem* gpus = addRow(tr("GPUs"), s.totalGpus > 0 ? num(s.totalGpus) : tr("none"));
    for (const auto& [model, count] : s.gpusByModel) {
        auto n = s.nodesByModel.find(model);
        addRow(QString::fromStdString(model), tr("%1 GPUs on %2 nodes").arg(num(count), num(n != s.nodesByModel.end() ? n->second : 0)), gpus);
    }
    QTreeWidgetItem* jobs = addRow(tr("jobs"), s.tasks != s.jobs ? tr("%1 (%2 tasks)").arg(num(s.jobs), num(s.tasks)) : num(s.jobs));
    addRow(tr("tasks"), tr("%1 CPU-only, %2 GPU-share, %3 whole-GPU").arg(num(s.cpuOnlyTasks), num(s.gpuShareTasks), num(s.wholeGpuTasks)), jobs);
    if (s.multiTaskJobs > 0)
        addRow(tr("multi-task"), num(s.multiTaskJobs), jobs);
    if (s.tasksWithLoggedNode > 0 || s.tasksWithLoggedStart > 0)
        addRow(tr("logged"), tr("start for %1 tasks, node for %2").arg(num(s.tasksWithLoggedStart), num(s.tasksWithLoggedNode)), jobs);
    if (s.loggedDecisions > 0) {
        // What the source scheduler logged it decided (events, its own log, a decision log).
        QTreeWidgetItem* logged = addRow(tr("logged decisions"),
            tr("%1: %2 placed, %3 unschedulable (%4 attempts, %5 tasks), %6 waited")
                .arg(num(s.loggedDecisions), num(s.loggedPlaced), num(s.loggedUnschedulable), num(s.loggedUnschedulableAttempts),
                    num(s.tasksEverUnschedulable), num(s.loggedWaited)));
        addRow(tr("with scores"), tr("%1 decisions list their candidates' scores").arg(num(s.loggedWithCandidates)), logged);
        for (const auto& [source, count] : s.loggedBySource)
            addRow(tr("by"), tr("%1: %2").arg(QString::fromStdString(source), num(count)), logged);
        if (!s.loggedReasons.empty()) {
            QTreeWidgetItem* reasons = addRow(tr("unfit because"), tr("%1 reasons").arg(s.loggedReasons.size()), logged);
            for (const auto& r : s.loggedReasons)
                addRow(num(r.attempts), tr("%1 (%2 tasks)").arg(QString::fromStdString(r.reason), num(r.tasks)), reasons);
        }
    }
    if (s.firstSubmitS >= 0) {
        const double end = std::max(s.lastEndS, s.lastSubmitS);
        QTreeWidgetItem* span = addRow(tr("span"), spanText(end - s.firstSubmitS));
        addRow(tr("first submit"), tr("%1 s").arg(s.firstSubmitS, 0, 'f', 0), span);
        addRow(tr("last submit"), tr("%1 s").arg(s.lastSubmitS, 0, 'f', 0), span);
    } else {
        addRow(tr("span"), tr("no submit times"));
    }
    QTreeWidgetItem* warnings = addRow(tr("warnings"), num(s.warnings));
    for (const auto& [category, count] : s.warningsByCategory)
        addRow(QString::fromStdString(category), num(count), warnings);
    for (const schedlab::Warning& w : s.firstWarnings)
        addRow(QString(), QString::fromStdString(w.toString()), warnings);
    if (s.warnings > 0) {
        QFont bold = warnings->font(0);
        bold.setBold(true);
        warnings->setFont(0, bold);
        warnings->setFont(1, bold);
    }
}

QString TraceSummaryView::rowValue(const QString& key) const
{
    for (int i = 0; i < topLevelItemCount(); ++i)
        if (topLevelItem(i)->text(0) == key)
            return topLevelItem(i)->text(1);
    return {};
}

void TraceSummaryView::showFullText()
{
    auto* dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Trace summary"));
    auto* text = new QPlainTextEdit(m_text, dialog);
    text->setReadOnly(true);
    text->setLineWrapMode(QPlainTextEdit::NoWrap);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog->resize(720, 520);
    dialog->show();
}

} // namespace schedlab::views
