// Training cells in sweeps (core/workflow/sweep.h): a plan of 2 weight vectors x 1 seed, 2
// fine-tune rounds each, in 2 shards on the tiny openb trace. Each shard trains its cell into its
// own project (checkpoints beside it) and skips it when run again; the progress reads each cell's
// last round's evaluation; the merge copies both lineages (parents remapped, curves, evaluation,
// checkpoints byte-identical) once, and refuses a shard whose checkpoint was altered, by name. A
// cell whose training process was killed shows as failed ("interrupted"), not running.

#include "test_util.h"

#include "rl/reward.h"
#include "store/project.h"
#include "workflow/sweep.h"
#include "workflow/sweep_progress.h"

#include <QFile>
#include <QtTest>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace schedlab;
using namespace schedlab::workflow;
using schedlab::test::dataPath;

namespace {

std::unique_ptr<store::Project> openProject(const std::string& path)
{
    auto p = store::Project::open(path);
    if (!p)
        qFatal("%s", p.error().toString().c_str());
    return std::move(p).value();
}

} // namespace

class TestSweepTraining : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string path(const std::string& name) const { return m_dir.filePath(QString::fromStdString(name)).toStdString(); }

private slots:
    void weightRangesExpand()
    {
        auto v = store::expandWeightRanges("balance=0.2:0.6:0.2,packing=0.5");
        QVERIFY(v.ok());
        QCOMPARE(*v, (std::vector<std::string> { "balance=0.2,packing=0.5", "balance=0.4,packing=0.5", "balance=0.6,packing=0.5" }));
        auto grid = store::expandWeightRanges("balance=0:1:1,packing=0:1:1;success=1");
        QVERIFY(grid.ok());
        QCOMPARE(*grid,
            (std::vector<std::string> { "balance=0,packing=0", "balance=0,packing=1", "balance=1,packing=0", "balance=1,packing=1", "success=1" }));
        auto bad = store::expandWeightRanges("balance=0.6:0.2:0.1");
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().message.find("'balance=0.6:0.2:0.1'") != std::string::npos, bad.error().message.c_str());
        QVERIFY(!store::expandWeightRanges("balance").ok());
    }

    void trainingCellsRunAndMergeWithTheirLineage()
    {
        SweepSpec spec;
        spec.traces = { { dataPath("tiny/nodes.csv"), dataPath("tiny/pods.csv") } };
        spec.seeds = { 7 };
        spec.base = sim::RunSpec::fill({}, sim::FillOptions {});
        spec.shards = 2;
        store::SweepTraining t;
        t.rounds = 2;
        t.episodes = 1;
        t.evalSeeds = { 42 };
        spec.train = t;
        for (const char* w : { "balance=0.9,packing=0.1", "balance=0.1,packing=0.9" })
            spec.weights.push_back(rl::RewardConfig::parse(w)->toString());
        auto plan = makeSweepPlan(spec);
        QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().toString().c_str());
        QCOMPARE(int(plan->cells.size()), 2);
        QVERIFY(plan->cells[0].train && plan->cells[0].train->weights == spec.weights[0]);
        QCOMPARE(plan->cells[1].spec.policy, std::string("learned"));
        // Written and read back: the same plan.
        QVERIFY(writeSweepPlan(*plan, path("t.sweep")).ok());
        auto back = readSweepPlan(path("t.sweep"));
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
        QCOMPARE(back->id, plan->id);
        QVERIFY(back->cells[1].train && back->cells[1].train->weights == spec.weights[1] && back->cells[1].train->rounds == 2);

        std::vector<std::string> shards;
        for (int s = 0; s < 2; ++s) {
            shards.push_back(path("t.sweep.shard-" + std::to_string(s) + ".schedlab"));
            auto p = openProject(shards.back());
            auto r = runSweepShard(*back, s, *p);
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
            QVERIFY2(r->ran == 1 && r->failed == 0, r->errors.empty() ? "" : r->errors[0].c_str());
            auto rounds = p->rounds();
            QCOMPARE(int(rounds->size()), 2);
            QCOMPARE((*rounds)[1].parentId, (*rounds)[0].id);
            QCOMPARE((*rounds)[0].weights, spec.weights[std::size_t(s)]);
            QVERIFY(QFile::exists(QString::fromStdString((*rounds)[1].checkpoint)));
            auto again = runSweepShard(*back, s, *p);
            QVERIFY(again.ok() && again->skipped == 1 && again->ran == 0);
        }
        const SweepProgress progress = readSweepProgress(*back, findShardFiles(path("t.sweep")));
        QCOMPARE(progress.count(CellStatus::Finished), 2);
        QVERIFY(progress.cells[0].summary.count("finalGpuAllocPct"));
        QVERIFY(progress.cells[0].summary.at("finalGpuAllocPct") > 0);

        // An altered checkpoint: that shard is refused, named; the other merges.
        auto merged = openProject(path("m.schedlab"));
        std::string shard1Checkpoint;
        {
            auto p = store::Project::open(shards[1], store::Project::OpenMode::ReadOnly);
            shard1Checkpoint = p.value()->rounds()->front().checkpoint;
        }
        QFile cp(QString::fromStdString(shard1Checkpoint));
        QVERIFY(cp.open(QIODevice::ReadWrite));
        const QByteArray original = cp.readAll();
        cp.seek(original.size() / 2);
        cp.write("X");
        cp.close();
        auto m = mergeSweep(*back, shards, *merged);
        QVERIFY(m.ok());
        QCOMPARE(m->merged, 1);
        QCOMPARE(int(m->refused.size()), 1);
        QVERIFY2(m->refused[0].find("t.sweep.shard-1.schedlab") != std::string::npos && m->refused[0].find("SHA-256") != std::string::npos,
            m->refused[0].c_str());
        QCOMPARE(int(merged->rounds()->size()), 2); // nothing of the refused shard
        QVERIFY(cp.open(QIODevice::WriteOnly) && cp.write(original) == original.size());
        cp.close();

        m = mergeSweep(*back, shards, *merged);
        QVERIFY(m.ok() && m->merged == 1 && m->already == 1 && m->refused.empty() && m->missing.empty());
        auto rounds = merged->rounds();
        QCOMPARE(int(rounds->size()), 4);
        for (int k : { 0, 2 }) {
            QCOMPARE((*rounds)[std::size_t(k)].parentId, int64_t(-1));
            QCOMPARE((*rounds)[std::size_t(k) + 1].parentId, (*rounds)[std::size_t(k)].id);
            QCOMPARE((*rounds)[std::size_t(k)].weights, (*rounds)[std::size_t(k) + 1].weights);
        }
        QVERIFY((*rounds)[0].weights != (*rounds)[2].weights);
        for (const store::RoundRow& r : *rounds) {
            QVERIFY2(r.checkpoint.find("m.schedlab.models/round-" + std::to_string(r.id) + ".slq") != std::string::npos, r.checkpoint.c_str());
            auto sha = store::sweepFileSha256(r.checkpoint);
            QVERIFY(sha.ok());
            QCOMPARE(*sha, r.checkpointSha256);
            QVERIFY(!merged->roundCurve(r.id)->empty());
            QVERIFY(!merged->roundEval(r.id)->empty());
        }
        m = mergeSweep(*back, shards, *merged);
        QVERIFY(m.ok() && m->merged == 0 && m->already == 2);
        QCOMPARE(int(merged->rounds()->size()), 4);
        // The merged project's progress: both cells merged, with the last rounds' figures.
        const SweepProgress after = readSweepProgress(*back, {}, merged.get());
        QCOMPARE(after.count(CellStatus::Merged), 2);
        QCOMPARE(after.cells[1].runId, (*rounds)[3].id);
        QCOMPARE(after.cells[1].summary, progress.cells[1].summary);
    }

    // A training cell whose process was killed with SIGKILL mid-round: failed ("interrupted"), not
    // running, in the progress read from its shard file.
    void killedTrainingCellIsInterrupted()
    {
        SweepSpec spec;
        spec.traces = { { dataPath("tiny/nodes.csv"), dataPath("tiny/pods.csv") } };
        spec.seeds = { 7 };
        spec.base = sim::RunSpec::fill({}, sim::FillOptions {});
        spec.train = store::SweepTraining {};
        spec.weights = { rl::RewardConfig::parse("balance=0.9,packing=0.1")->toString() };
        auto plan = makeSweepPlan(spec);
        QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().toString().c_str());
        const std::string shard = path("k.sweep.shard-0.schedlab");
        QVERIFY(openProject(shard)->setSetting("sweep.plan", plan->id).ok());
        const pid_t child = ::fork();
        if (child == 0) {
            auto p = store::Project::open(shard);
            if (p)
                (void)p.value()->beginRound({ -1, -1, store::RoundKind::Fill, "all pods", 1, 1e-3, plan->cells[0].train->weights, 7, "{}" });
            ::raise(SIGKILL);
        }
        int status = 0;
        ::waitpid(child, &status, 0);
        QVERIFY(WIFSIGNALED(status));
        const SweepProgress progress = readSweepProgress(*plan, { shard });
        QCOMPARE(progress.count(CellStatus::Running), 0);
        QCOMPARE(progress.cells[0].status, CellStatus::Failed);
        QVERIFY2(progress.cells[0].error.find("interrupted") != std::string::npos, progress.cells[0].error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSweepTraining)
#include "test_sweep_training.moc"
