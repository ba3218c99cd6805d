// Sweeps (core/workflow/sweep.h): a plan of 2 traces x 2 policies x 3 seeds in 3 shards, each
// shard into its own project, merged: every cell once, with the summaries of a run of the same
// spec in one process; merging again adds nothing; a shard of another plan is refused by name; an
// interrupted shard resumes with its finished cells skipped; an edited plan is refused; the Slurm
// script is valid bash and the Kubernetes manifest an Indexed Job of the plan's shards.

#include "test_util.h"

#include "store/project.h"
#include "trace/trace_loader.h"
#include "workflow/execute.h"
#include "workflow/sweep.h"
#include "workflow/sweep_emit.h"

#include <yaml-cpp/yaml.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QtTest>

#include <map>

using namespace schedlab;
using namespace schedlab::workflow;
using schedlab::test::dataPath;

namespace {

SweepSpec tinySpec(int shards)
{
    SweepSpec s;
    s.traces = { { dataPath("tiny/nodes.csv"), dataPath("tiny/pods.csv") }, { dataPath("tiny/jobs.swf") } };
    s.policies = { "bestfit", "firstfit" };
    s.seeds = { 1, 2, 3 };
    s.base = sim::RunSpec::timed({}, sim::TimedOptions {});
    s.shards = shards;
    return s;
}

std::unique_ptr<store::Project> openProject(const std::string& path)
{
    auto p = store::Project::open(path);
    if (!p)
        qFatal("%s", p.error().toString().c_str());
    return std::move(p).value();
}

/// Cell index -> its summary in `project` (via the sweep's cell keys).
std::map<int, std::vector<std::pair<std::string, double>>> summaries(const SweepPlan& plan, store::Project& project)
{
    std::map<int, std::vector<std::pair<std::string, double>>> out;
    for (const SweepCell& c : plan.cells) {
        auto run = project.setting(sweepCellKey(plan.id, c.index));
        if (!run || run->empty())
            continue;
        auto s = project.summary(std::atoll(run->c_str()));
        if (s)
            out[c.index] = *s;
    }
    return out;
}

} // namespace

class TestSweep : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string path(const std::string& name) const { return m_dir.filePath(QString::fromStdString(name)).toStdString(); }

private slots:
    void planLaysOutCellsRoundRobin()
    {
        auto plan = makeSweepPlan(tinySpec(3));
        QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().toString().c_str());
        QCOMPARE(int(plan->cells.size()), 12); // 2 traces x 2 policies x 3 seeds
        QCOMPARE(plan->cells[5].trace, 0);
        QCOMPARE(plan->cells[6].trace, 1);
        QCOMPARE(plan->cells[4].spec.policy, std::string("firstfit"));
        QCOMPARE(plan->cells[4].spec.seed(), uint64_t(2));
        QCOMPARE(plan->cells[4].shard, 1);
        QCOMPARE(int(plan->cellsOf(2).size()), 4);
        QCOMPARE(plan->traces[0].sha256.size(), std::size_t(2));
        // Written and read back: the same plan, the same id.
        QVERIFY(writeSweepPlan(*plan, path("a.sweep")).ok());
        auto back = readSweepPlan(path("a.sweep"));
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
        QCOMPARE(back->id, plan->id);
        QCOMPARE(back->cells.size(), plan->cells.size());
        QCOMPARE(back->cells[7].spec.policy, plan->cells[7].spec.policy);
        QCOMPARE(back->traces[1].files, plan->traces[1].files);
    }

    // The plan names the files in its folder relative to itself: the folder moves (to a cluster's
    // shared file system, a volume) and the shards still find the trace.
    void aPlanMovesWithItsFolder()
    {
        QDir root(m_dir.path());
        QVERIFY(root.mkpath("study"));
        const std::string trace = path("study/jobs.swf");
        QVERIFY(QFile::copy(QString::fromStdString(dataPath("tiny/jobs.swf")), QString::fromStdString(trace)));
        SweepSpec spec = tinySpec(1);
        spec.traces = { { trace } };
        auto plan = makeSweepPlan(spec);
        QVERIFY(plan.ok());
        QVERIFY(writeSweepPlan(*plan, path("study/s.sweep")).ok());
        QFile written(QString::fromStdString(path("study/s.sweep")));
        QVERIFY(written.open(QIODevice::ReadOnly));
        QVERIFY(written.readAll().contains("\"jobs.swf\""));
        QVERIFY(root.rename("study", "moved"));
        auto back = readSweepPlan(path("moved/s.sweep"));
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
        QCOMPARE(back->traces[0].files[0], path("moved/jobs.swf"));
        auto p = openProject(path("moved/shard.schedlab"));
        auto r = runSweepShard(*back, 0, *p);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        QCOMPARE(r->ran, 6);
    }

    void shardsMergeToTheSameSummariesOnce()
    {
        auto plan = makeSweepPlan(tinySpec(3));
        QVERIFY(plan.ok());
        std::vector<std::string> shards;
        for (int s = 0; s < 3; ++s) {
            shards.push_back(path("shard-" + std::to_string(s) + ".schedlab"));
            auto project = openProject(shards.back());
            auto r = runSweepShard(*plan, s, *project);
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
            QCOMPARE(r->ran, 4);
            QCOMPARE(r->failed, 0);
        }
        auto merged = openProject(path("merged.schedlab"));
        auto m = mergeSweep(*plan, shards, *merged);
        QVERIFY(m.ok());
        QCOMPARE(m->merged, 12);
        QVERIFY(m->missing.empty() && m->refused.empty());
        auto again = mergeSweep(*plan, shards, *merged);
        QVERIFY(again.ok());
        QCOMPARE(again->merged, 0);
        QCOMPARE(again->already, 12);
        auto runs = merged->runs();
        QCOMPARE(int(runs->size()), 12);

        // The same specs in one process, recorded the same way: the same summaries.
        const auto fromShards = summaries(*plan, *merged);
        QCOMPARE(int(fromShards.size()), 12);
        for (const SweepCell& c : plan->cells) {
            auto t = trace::loadTrace(plan->traces[std::size_t(c.trace)].files);
            QVERIFY(t.ok());
            auto out = execute(c.spec, t->trace, ExecuteOptions { false });
            QVERIFY(out.ok());
            const std::map<std::string, double> stored(fromShards.at(c.index).begin(), fromShards.at(c.index).end());
            QCOMPARE(stored.at("wait.p99"), out->timed->waitS.p99);
            QCOMPARE(stored.at("wait.mean"), out->timed->waitS.mean);
            QCOMPARE(stored.at("meanGpuUtil"), out->timed->meanGpuUtil);
            QCOMPARE(stored.at("completed"), double(out->timed->completed));
            QCOMPARE(stored.at("makespanS"), out->timed->makespanS);
        }
        // Traces came along once each.
        QVERIFY(merged->traceFiles(1).ok() && merged->traceFiles(2).ok());
    }

    void anotherPlansShardIsRefusedAndResumeSkipsDoneCells()
    {
        auto plan = makeSweepPlan(tinySpec(2));
        SweepSpec other = tinySpec(2);
        other.seeds = { 9 };
        auto otherPlan = makeSweepPlan(other);
        QVERIFY(plan.ok() && otherPlan.ok());
        QVERIFY(plan->id != otherPlan->id);
        const std::string foreign = path("foreign.schedlab");
        {
            auto p = openProject(foreign);
            QVERIFY(runSweepShard(*otherPlan, 0, *p).ok());
            // A shard file of one plan does not take another plan's cells.
            auto mixed = runSweepShard(*plan, 0, *p);
            QVERIFY(!mixed.ok());
            QVERIFY2(mixed.error().message.find("holds cells of sweep " + otherPlan->id) != std::string::npos, mixed.error().message.c_str());
        }
        auto merged = openProject(path("merged2.schedlab"));
        auto m = mergeSweep(*plan, { foreign }, *merged);
        QVERIFY(m.ok());
        QCOMPARE(int(m->refused.size()), 1);
        QVERIFY2(m->refused[0].find("foreign.schedlab") != std::string::npos, m->refused[0].c_str());
        QCOMPARE(int(m->missing.size()), 12);

        // Interrupted after its first cell (cancelled), then run again: that cell is skipped.
        const std::string shard0 = path("resume.schedlab");
        auto p = openProject(shard0);
        CancelToken cancel;
        int seen = 0;
        auto first = runSweepShard(*plan, 0, *p, [&](double) {
            if (++seen == 1)
                cancel.cancel();
        }, cancel);
        QVERIFY(!first.ok());
        QVERIFY(first.error().isCancelled());
        auto second = runSweepShard(*plan, 0, *p);
        QVERIFY(second.ok());
        QCOMPARE(second->skipped, 1);
        QCOMPARE(second->ran, 5);
        auto third = runSweepShard(*plan, 0, *p);
        QCOMPARE(third->skipped, 6);
        QCOMPARE(third->ran, 0);
    }

    void editedOrBadPlansAreRefused()
    {
        auto plan = makeSweepPlan(tinySpec(2));
        QVERIFY(writeSweepPlan(*plan, path("b.sweep")).ok());
        QFile f(QString::fromStdString(path("b.sweep")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        f.close();
        auto refuse = [&](const QByteArray& edited, const std::string& message) {
            QFile g(QString::fromStdString(path("edited.sweep")));
            QVERIFY(g.open(QIODevice::WriteOnly));
            g.write(edited);
            g.close();
            auto r = readSweepPlan(path("edited.sweep"));
            QVERIFY(!r.ok());
            QVERIFY2(r.error().toString().find(message) != std::string::npos, r.error().toString().c_str());
            QVERIFY2(r.error().toString().find("edited.sweep") != std::string::npos, r.error().toString().c_str());
        };
        refuse(QByteArray(text).replace("\"bestfit\"", "\"worstfit\""), "/id: does not match the plan's content");
        refuse(QByteArray(text).replace("\"shard\": 1", "\"shard\": 7"), "/cells/1/shard: not a shard of the plan");
        refuse(QByteArray(text).replace("schedlab.sweep/1", "schedlab.sweep/2"), "/schema");
        refuse(text.left(text.size() / 2), "not a sweep plan (JSON)");
    }

    void emittedJobsDescribeTheShards()
    {
        auto plan = makeSweepPlan(tinySpec(4));
        QVERIFY(plan.ok());
        EmitOptions o;
        o.cli = "/opt/schedlab/bin/schedlab-cli";
        o.planPath = "/shared/study.sweep";
        o.shardDir = "/shared/study shards"; // a space: quoted right
        o.project = "/shared/study.schedlab";
        o.parallel = 2;
        const std::string script = emitSlurm(*plan, o);
        QVERIFY(script.find("--array=0-3%2") != std::string::npos);
        QVERIFY(script.find("--dependency=afterok:\"$shards\"") != std::string::npos);
        QVERIFY(script.find("sweep run '/shared/study.sweep' --shard \"$SLURM_ARRAY_TASK_ID\"") != std::string::npos);
        QProcess bash;
        bash.start("bash", { "-n" });
        bash.write(QByteArray::fromStdString(script));
        bash.closeWriteChannel();
        QVERIFY(bash.waitForFinished(10000));
        QVERIFY2(bash.exitCode() == 0, bash.readAllStandardError().constData());

        const std::string manifest = emitKubernetes(*plan, o);
        const YAML::Node job = YAML::Load(manifest);
        QCOMPARE(job["kind"].as<std::string>(), std::string("Job"));
        QCOMPARE(job["apiVersion"].as<std::string>(), std::string("batch/v1"));
        QCOMPARE(job["spec"]["completionMode"].as<std::string>(), std::string("Indexed"));
        QCOMPARE(job["spec"]["completions"].as<int>(), 4);
        QCOMPARE(job["spec"]["parallelism"].as<int>(), 2);
        const YAML::Node c = job["spec"]["template"]["spec"]["containers"][0];
        QCOMPARE(c["command"][1].as<std::string>(), std::string("sweep"));
        QCOMPARE(c["command"][3].as<std::string>(), std::string("/shared/study.sweep"));
        QVERIFY(c["command"][5].as<std::string>().find("$(JOB_COMPLETION_INDEX)") != std::string::npos);
        QCOMPARE(job["spec"]["template"]["spec"]["restartPolicy"].as<std::string>(), std::string("Never"));
        QCOMPARE(c["resources"]["requests"]["memory"].as<std::string>(), std::string("4Gi"));
    }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "test_sweep.moc"
