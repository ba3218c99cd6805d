#include "runs_dock.h"
#include "swatch.h"

#include <QListWidget>

#include <algorithm>
#include <set>

namespace schedlab::app {

RunsDock::RunsDock(ProjectSession* session, std::function<QColor(const std::string&)> colourOf, QWidget* parent)
    : QDockWidget(tr("Runs"), parent)
    , m_session(session)
    , m_colourOf(std::move(colourOf))
{
    setObjectName("runsDock");
    m_list = new QListWidget(this);
    m_storedLoads = new JobTracker(this);
    m_runner = new RunController(this);
    connect(m_runner, &RunController::progress, this, &RunsDock::progress);
    connect(m_runner, &RunController::runFinished, this, &RunsDock::addFinished);
    connect(m_runner, &RunController::batchFinished, this, &RunsDock::batchFinished);
    connect(m_list, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        if (item->checkState() == Qt::Checked && item->data(Qt::UserRole).toInt() == -1)
            loadStoredRun(item); // a stored run checked for the first time (-2: loading)
        emit checkedRunsChanged();
    });
    setWidget(m_list);
}

std::vector<views::RunResult> RunsDock::checkedRuns() const
{
    std::vector<views::RunResult> shown;
    for (const views::RunResult& r : m_results)
        for (int i = 0; i < m_list->count(); ++i)
            if (m_list->item(i)->data(Qt::UserRole).toInt() == r.id && m_list->item(i)->checkState() == Qt::Checked)
                shown.push_back(r);
    return shown;
}

std::vector<views::RunResult> RunsDock::replayableRuns() const
{
    std::vector<views::RunResult> replayable;
    for (const views::RunResult& r : m_results)
        if (!r.fork)
            replayable.push_back(r);
    return replayable;
}

bool RunsDock::hasUnsavedRuns() const
{
    return std::any_of(m_results.begin(), m_results.end(), [](const views::RunResult& r) { return r.storedId < 0 && !r.fork; });
}

void RunsDock::clear(bool dropLoading)
{
    if (dropLoading)
        m_storedLoads->reset();
    m_results.clear();
    m_list->clear();
}

void RunsDock::start(const RunBatch& batch)
{
    m_batchFrom = m_results.size();
    m_runner->start(batch);
}

void RunsDock::cancel() { m_runner->cancel(); }

bool RunsDock::isRunning() const { return m_runner->isRunning(); }

QString RunsDock::doneText() const
{
    // A fill workload above the ratio was trimmed (as the FGD authors do): say so.
    for (const views::RunResult& r : m_results)
        if (r.fill && r.fill->podsRemoved > 0)
            return tr("Done. The pod list asks for %1 % of GPU capacity: %2 pods removed at random down to "
                      "the ratio, as the FGD authors do")
                .arg(r.fill->originalRequestPct, 0, 'f', 1)
                .arg(r.fill->podsRemoved);
    return tr("Done");
}

void RunsDock::addFinished(const views::RunResult& r)
{
    // Runs finish in any order; they are listed (and the dashboard picks its default run) in the
    // order they were asked for: ids are given at launch, in the batch's order.
    std::size_t at = m_results.size();
    while (at > std::min(m_batchFrom, m_results.size()) && m_results[at - 1].id > r.id)
        --at;
    const int before = at < m_results.size() ? m_results[at].id : -1;
    m_results.insert(m_results.begin() + std::ptrdiff_t(at), r);
    addRunItem(r, before);
    emit checkedRunsChanged();
    emit runsChanged();
}

void RunsDock::addRunItem(const views::RunResult& r, int before)
{
    auto* item = new QListWidgetItem(swatch(m_colourOf(r.policy)), QString::fromStdString(r.label));
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(Qt::Checked);
    item->setData(Qt::UserRole, r.id);
    item->setData(Qt::UserRole + 1, qlonglong(r.storedId));
    QString tip;
    if (r.timed)
        tip = tr("wait p99 %1 s, mean GPU util %2 %").arg(r.timed->waitS.p99).arg(100 * r.timed->meanGpuUtil, 0, 'f', 1);
    else if (r.fill)
        tip = tr("final GPU allocation %1 %").arg(r.fill->finalGpuAllocPct, 0, 'f', 2);
    item->setToolTip(tip);
    const QSignalBlocker block(m_list);
    int row = m_list->count();
    for (int i = m_list->count() - 1; i >= 0 && before >= 0; --i) // the batch's rows are the last ones
        if (m_list->item(i)->data(Qt::UserRole).toInt() == before) {
            row = i;
            break;
        }
    m_list->insertItem(row, item);
}

void RunsDock::dropSessionRuns()
{
    m_results.erase(std::remove_if(m_results.begin(), m_results.end(), [](const views::RunResult& r) { return r.storedId < 0; }),
        m_results.end());
    for (int i = m_list->count() - 1; i >= 0; --i)
        if (m_list->item(i)->data(Qt::UserRole + 1).toLongLong() < 0)
            delete m_list->takeItem(i);
}

QListWidgetItem* RunsDock::addStoredRunItem(const store::RunRow& row)
{
    QString text = QStringLiteral("%1 #%2 (run %3, %4)")
                       .arg(QString::fromStdString(row.policy))
                       .arg(row.seed)
                       .arg(row.id)
                       .arg(QString::fromStdString(row.mode));
    auto* item = new QListWidgetItem(text);
    item->setData(Qt::UserRole, -1); // not loaded yet
    item->setData(Qt::UserRole + 1, qlonglong(row.id));
    if (row.status == "finished") {
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
        item->setToolTip(tr("stored %1, %2 s").arg(QString::fromStdString(row.finishedAt)).arg(row.wallSeconds, 0, 'f', 2));
    } else {
        item->setText(text + QStringLiteral(" — ") + QString::fromStdString(row.status));
        item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
        item->setToolTip(QString::fromStdString(row.error.empty() ? row.status : row.error));
    }
    const QSignalBlocker block(m_list);
    m_list->addItem(item);
    return item;
}

void RunsDock::listStored(const std::vector<store::RunRow>& rows, int show)
{
    for (const store::RunRow& row : rows)
        addStoredRunItem(row);
    int shown = 0;
    for (int i = m_list->count() - 1; i >= 0 && shown < show; --i) {
        QListWidgetItem* item = m_list->item(i);
        if (item->flags() & Qt::ItemIsUserCheckable) {
            item->setCheckState(Qt::Checked); // itemChanged loads it
            ++shown;
        }
    }
}

int RunsDock::appendNewStoredRuns()
{
    auto rows = m_session->storedRuns();
    if (!rows) {
        emit errorOccurred(QString::fromStdString(rows.error().toString()));
        return 0;
    }
    std::set<qlonglong> listed;
    for (int i = 0; i < m_list->count(); ++i)
        listed.insert(m_list->item(i)->data(Qt::UserRole + 1).toLongLong());
    int added = 0;
    for (const store::RunRow& row : rows.value())
        if (!listed.count(row.id)) {
            addStoredRunItem(row);
            ++added;
        }
    return added;
}

bool RunsDock::showStoredRun(qlonglong runId)
{
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem* item = m_list->item(i);
        if (item->data(Qt::UserRole + 1).toLongLong() != runId)
            continue;
        m_list->scrollToItem(item);
        if (item->checkState() != Qt::Checked)
            item->setCheckState(Qt::Checked); // itemChanged loads it
        return true;
    }
    return false;
}

void RunsDock::loadStoredRun(QListWidgetItem* item)
{
    // Read on a worker with its own read-only connection: large runs (series, heat) do not freeze
    // the window. The item is "loading" (-2) until the result arrives.
    const int64_t storedId = item->data(Qt::UserRole + 1).toLongLong();
    const int sessionId = m_nextLoadedId++;
    const std::string path = m_session->path().toStdString();
    {
        const QSignalBlocker block(m_list);
        item->setData(Qt::UserRole, -2);
    }
    m_storedLoads->launch(
        [path, storedId, sessionId](ProgressFn, CancelToken) -> Result<views::RunResult> {
            auto project = store::Project::open(path, store::Project::OpenMode::ReadOnly);
            if (!project)
                return project.error();
            return ProjectSession::loadFrom(*project.value(), storedId, sessionId);
        },
        [this, storedId](Result<views::RunResult> run) { storedRunLoaded(storedId, std::move(run)); });
}

void RunsDock::storedRunLoaded(int64_t storedId, Result<views::RunResult> run)
{
    QListWidgetItem* item = nullptr;
    for (int i = 0; i < m_list->count() && !item; ++i)
        if (m_list->item(i)->data(Qt::UserRole + 1).toLongLong() == storedId)
            item = m_list->item(i);
    if (item) {
        const QSignalBlocker block(m_list);
        if (!run) {
            emit errorOccurred(QString::fromStdString(run.error().toString()));
            item->setCheckState(Qt::Unchecked);
            item->setData(Qt::UserRole, -1);
        } else {
            item->setData(Qt::UserRole, run->id);
            item->setIcon(swatch(m_colourOf(run->policy)));
            m_results.push_back(std::move(run).value());
        }
    }
    emit checkedRunsChanged();
    if (!m_storedLoads->isRunning())
        emit storedRunsLoaded();
}

Status RunsDock::save(const trace::Trace* trace, const std::vector<std::string>& traceFiles)
{
    const Status s = hasUnsavedRuns() && trace ? m_session->save(m_results, *trace, traceFiles) : Status();
    // Runs stored before a failure keep their ids; the list learns them either way.
    for (int i = 0; i < m_list->count(); ++i)
        for (const views::RunResult& r : m_results)
            if (m_list->item(i)->data(Qt::UserRole).toInt() == r.id)
                m_list->item(i)->setData(Qt::UserRole + 1, qlonglong(r.storedId));
    return s;
}

} // namespace schedlab::app
