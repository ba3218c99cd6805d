#include "trace_dock.h"

#include "job_table_model.h"
#include "trace_summary_view.h"

#include "trace/swf_importer.h"
#include "trace/trace_summary.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <cstdlib>

namespace schedlab::app {

TraceDock::TraceDock(QWidget* parent)
    : QDockWidget(tr("Trace"), parent)
{
    setObjectName("traceDock");
    auto* traceWidget = new QWidget(this);
    auto* tl = new QVBoxLayout(traceWidget);
    m_summary = new views::TraceSummaryView(traceWidget);
    m_summary->setMaximumHeight(200);
    auto* filter = new QLineEdit(traceWidget);
    filter->setPlaceholderText(tr("Filter jobs by name or id"));
    m_jobs = new views::JobTableModel(this);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_jobs);
    proxy->setSortRole(Qt::UserRole);
    proxy->setFilterKeyColumn(-1);
    connect(filter, &QLineEdit::textChanged, proxy, &QSortFilterProxyModel::setFilterFixedString);
    auto* table = new QTableView(traceWidget);
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->sortByColumn(views::JobTableModel::Submit, Qt::AscendingOrder);
    table->verticalHeader()->setVisible(false);
    table->verticalHeader()->setDefaultSectionSize(20);
    tl->addWidget(m_summary);
    tl->addWidget(buildSwfRow(traceWidget));
    tl->addWidget(filter);
    tl->addWidget(table, 1);
    setWidget(traceWidget);
}

QWidget* TraceDock::buildSwfRow(QWidget* parent)
{
    // SWF logs describe a processor pool; the split into nodes makes heatmaps and fragmentation
    // mean something. Shown for SWF traces, pre-filled from the log's .machines file or header.
    m_swfRow = new QWidget(parent);
    auto* swf = new QHBoxLayout(m_swfRow);
    swf->setContentsMargins(0, 0, 0, 0);
    m_procsPerNode = new QSpinBox(m_swfRow);
    m_procsPerNode->setObjectName("procsPerNode");
    m_procsPerNode->setRange(0, 1'000'000);
    m_procsPerNode->setSpecialValueText(tr("one pool"));
    m_procsPerNode->setToolTip(tr("SWF: processors per node (0 = one processor pool); jobs become gangs of ceil(p / K) tasks"));
    auto* split = new QPushButton(tr("Reload"), m_swfRow);
    split->setObjectName("procsPerNodeReload");
    swf->addWidget(new QLabel(tr("Procs/node"), m_swfRow));
    swf->addWidget(m_procsPerNode, 1);
    swf->addWidget(split);
    m_swfRow->setVisible(false);
    connect(split, &QPushButton::clicked, this, [this] {
        trace::ImportOptions o;
        o.procsPerNode = m_procsPerNode->value();
        emit reloadRequested(o);
    });
    return m_swfRow;
}

void TraceDock::setTrace(std::shared_ptr<const trace::LoadedTrace> loaded, const std::vector<std::string>& paths)
{
    const bool swf = loaded->trace.sourceFormat == "swf";
    m_swfRow->setVisible(swf);
    m_summary->setSummary(trace::summarize(*loaded), swf ? QString::fromStdString(trace::swfClusterModel(loaded->trace)) : QString());
    if (swf) {
        auto k = loaded->trace.metadata.find("swf.procsPerNode");
        m_procsPerNode->setValue(k != loaded->trace.metadata.end() ? std::atoi(k->second.c_str())
                                                                   : trace::suggestedProcsPerNode(paths.front(), loaded->trace));
    }
    m_jobs->setTrace(std::shared_ptr<const trace::Trace>(loaded, &loaded->trace));
}

std::vector<std::string> TraceDock::chooseFiles()
{
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Open Trace"),
        QSettings().value("paths/lastTraceDir").toString(),
        tr("Traces and scheduler logs (*.csv *.gz *.swf *.sltrace *.json *.jsonl *.log *.txt *.acct*);;All files (*)"));
    if (files.isEmpty())
        return {};
    QSettings().setValue("paths/lastTraceDir", QFileInfo(files.front()).absolutePath());
    std::vector<std::string> paths;
    for (const QString& f : files)
        paths.push_back(f.toStdString());
    return paths;
}

std::vector<std::string> TraceDock::chooseFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Import Folder (a kubectl dump, scheduler logs)"),
        QSettings().value("paths/lastTraceDir").toString());
    if (dir.isEmpty())
        return {};
    QSettings().setValue("paths/lastTraceDir", dir);
    return { dir.toStdString() };
}

} // namespace schedlab::app
