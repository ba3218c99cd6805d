// How far a sweep is (core/workflow/sweep_progress.h), on a plan of 12 cells in 3 shards: shard 0
// finished and merged, shard 1 stopped after its first cell with one attempt running and one
// failed, shard 2 not started, a shard of another plan beside them. The shard files are found
// where `sweep run` and `sweep emit` put them.

#include "test_util.h"

#include "store/project.h"
#include "store/run_spec_codec.h"
#include "workflow/sweep.h"
#include "workflow/sweep_progress.h"

#include <QDir>
#include <QFile>
#include <QtTest>

using namespace schedlab;
using namespace schedlab::workflow;
using schedlab::test::dataPath;

namespace {

SweepSpec spec(std::vector<uint64_t> seeds)
{
    SweepSpec s;
    s.traces = { { dataPath("tiny/nodes.csv"), dataPath("tiny/pods.csv") }, { dataPath("tiny/jobs.swf") } };
    s.policies = { "bestfit", "firstfit" };
    s.seeds = std::move(seeds);
    s.base = sim::RunSpec::timed({}, sim::TimedOptions {});
    s.shards = 3;
    return s;
}

std::unique_ptr<store::Project> openProject(const std::string& path)
{
    auto p = store::Project::open(path);
    if (!p)
        qFatal("%s", p.error().toString().c_str());
    return std::move(p).value();
}

} // namespace

class TestSweepProgress : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string path(const std::string& name) const { return m_dir.filePath(QString::fromStdString(name)).toStdString(); }

private slots:
    void eachCellsStateFromTheShardFiles()
    {
        auto plan = makeSweepPlan(spec({ 1, 2, 3 }));
        auto other = makeSweepPlan(spec({ 9 }));
        QVERIFY(plan.ok() && other.ok());
        QVERIFY(QDir(m_dir.path()).mkpath("s.sweep.shards") && QDir(m_dir.path()).mkpath("shards"));
        const std::string s0 = path("s.sweep.shard-0.schedlab"), s1 = path("s.sweep.shards/shard-1.schedlab"),
                          foreign = path("shards/shard-7.schedlab");
        QFile(QString::fromStdString(path("unrelated.schedlab"))).open(QIODevice::WriteOnly);
        QVERIFY(runSweepShard(*plan, 0, *openProject(s0)).ok());
        QVERIFY(runSweepShard(*other, 0, *openProject(foreign)).ok());
        {
            auto p = openProject(s1);
            CancelToken cancel;
            auto r = runSweepShard(*plan, 1, *p, [&](double) { cancel.cancel(); }, cancel);
            QVERIFY(!r.ok() && r.error().isCancelled());
            // Shard 1's cells are 1, 4, 7, 10: cell 4 being run now, an attempt at cell 7 failed.
            QVERIFY(p->beginRun(store::runInfoOf(plan->cells[4].spec, 1)).ok());
            auto failed = p->beginRun(store::runInfoOf(plan->cells[7].spec, 1));
            QVERIFY(failed.ok() && p->endRun(*failed, store::RunStatus::Failed, "out of memory").ok());
            // Held open: the running attempt's process (this one) is alive while the files are read.
            const std::vector<std::string> found = findShardFiles(path("s.sweep"));
            QCOMPARE(found, (std::vector<std::string> { s0, path("s.sweep.shards/shard-1.schedlab"), foreign }));

            auto merged = openProject(path("merged.schedlab"));
            QVERIFY(mergeSweep(*plan, { s0 }, *merged).ok());
            const SweepProgress progress = readSweepProgress(*plan, found, merged.get());
            QCOMPARE(progress.count(CellStatus::Merged), 4);
            QCOMPARE(progress.count(CellStatus::Finished), 1);
            QCOMPARE(progress.count(CellStatus::Running), 1);
            QCOMPARE(progress.count(CellStatus::Failed), 1);
            QCOMPARE(progress.count(CellStatus::Waiting), 5);
            for (int c : { 0, 3, 6, 9 }) {
                QCOMPARE(progress.cells[std::size_t(c)].status, CellStatus::Merged);
                QCOMPARE(progress.cells[std::size_t(c)].file, path("merged.schedlab"));
                QVERIFY(progress.cells[std::size_t(c)].summary.count("wait.p99"));
            }
            QCOMPARE(progress.cells[1].status, CellStatus::Finished);
            QCOMPARE(progress.cells[1].file, s1);
            QCOMPARE(progress.cells[1].summary.at("completed"), progress.cells[1].summary.at("units"));
            QCOMPARE(progress.cells[4].status, CellStatus::Running);
            QCOMPARE(progress.cells[7].status, CellStatus::Failed);
            QCOMPARE(progress.cells[7].error, std::string("out of memory"));
            QCOMPARE(progress.cells[10].status, CellStatus::Waiting);
            QCOMPARE(progress.cells[2].status, CellStatus::Waiting);
            QCOMPARE(progress.shardFiles.size(), std::size_t(2));
            QCOMPARE(progress.problems.size(), std::size_t(1));
            QVERIFY2(progress.problems[0].find("shard-7.schedlab: not a shard of this sweep") != std::string::npos, progress.problems[0].c_str());
        }
        // Without the merged project, shard 0's cells are finished in their shard file.
        const SweepProgress unmerged = readSweepProgress(*plan, { s0 });
        QCOMPARE(unmerged.count(CellStatus::Finished), 4);
        QCOMPARE(unmerged.cells[3].file, s0);
    }
};

QTEST_GUILESS_MAIN(TestSweepProgress)
#include "test_sweep_progress.moc"
