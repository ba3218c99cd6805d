// The workflow layer (core/workflow): argument parsing shared by CLI and GUI, execute() against
// the replays it wraps, recording as-it-runs vs storing-after giving identical rows, the one seed
// rule of fine-tune sessions, and opening stored runs for incident replay.

#include "run_rows.h"
#include "test_util.h"

#include "sim/fill_experiment.h"
#include "sim/timed_replay.h"
#include "store/project.h"
#include "store/run_spec_codec.h"
#include "trace/load_profile.h"
#include "trace/native_format.h"
#include "trace/trace_generator.h"
#include "workflow/execute.h"
#include "workflow/fine_tune_session.h"
#include "workflow/open_run.h"
#include "workflow/run_args.h"
#include "workflow/run_recorder.h"
#include "workflow/run_series.h"

#include "policy/placement_policy.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace schedlab;

namespace {

std::shared_ptr<const trace::Trace> generated(int nodes, int64_t jobs, uint64_t seed = 5)
{
    trace::GeneratorOptions g;
    g.nodes = nodes;
    g.jobs = jobs;
    g.seed = seed;
    auto t = trace::generateTrace(g);
    if (!t)
        qFatal("%s", t.error().toString().c_str());
    return std::make_shared<const trace::Trace>(std::move(t).value());
}

sim::RunSpec timedSpec(const std::string& policy, uint64_t seed = 42)
{
    sim::TimedOptions o;
    o.seed = seed;
    o.backfill = sim::Backfill::Easy;
    o.p99WindowS = 1800;
    o.slaByQos["LS"] = 600;
    return sim::RunSpec::timed(policy, o);
}

// The row a project stores for `info`, as run `id`.
store::RunRow rowOf(const store::RunInfo& info, int64_t id)
{
    store::RunRow row;
    row.id = id;
    row.mode = info.mode;
    row.policy = info.policy;
    row.queue = info.queue;
    row.backfill = info.backfill;
    row.seed = info.seed;
    row.optionsJson = info.optionsJson;
    return row;
}

// The trace written to a file in `dir` (projects hash the files a trace came from).
std::vector<std::string> traceFile(const QTemporaryDir& dir, const trace::Trace& t)
{
    const std::string path = dir.filePath("gen.sltrace").toStdString();
    if (!trace::writeNativeTrace(t, path))
        qFatal("cannot write %s", path.c_str());
    return { path };
}

} // namespace

class TestWorkflow : public QObject {
    Q_OBJECT
private slots:
    void seedsParse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("want"); // seeds joined by ' ', or "error"
        QTest::newRow("one") << "42" << "42";
        QTest::newRow("range") << "42-44" << "42 43 44";
        QTest::newRow("list with spaces") << " 1, 3 ,7" << "1 3 7";
        QTest::newRow("mixed") << "1-2,9" << "1 2 9";
        QTest::newRow("empty") << "" << "error";
        QTest::newRow("only commas") << ",," << "error";
        QTest::newRow("word") << "abc" << "error";
        QTest::newRow("negative") << "-3" << "error";
        QTest::newRow("backwards") << "9-3" << "error";
        QTest::newRow("too many in a range") << "0-10000" << "error";
        QTest::newRow("the limit") << "1-10000" << "10000 seeds";
        QTest::newRow("too many over items") << "1-9999,20000-20001" << "error";
        QTest::newRow("trailing junk") << "4x" << "error";
    }
    void seedsParse()
    {
        QFETCH(QString, text);
        QFETCH(QString, want);
        auto r = workflow::parseSeeds(text.toStdString());
        if (want == "error") {
            QVERIFY(!r.ok());
            QVERIFY(r.error().message.find("seeds '" + text.toStdString() + "'") != std::string::npos);
            return;
        }
        QVERIFY2(r.ok(), r ? "" : r.error().message.c_str());
        if (want.endsWith(" seeds")) {
            QCOMPARE(qsizetype(r->size()), want.split(' ')[0].toLongLong());
            return;
        }
        QStringList got;
        for (uint64_t s : r.value())
            got << QString::number(s);
        QCOMPARE(got.join(' '), want);
    }

    void durationsAndRunTimes()
    {
        QCOMPARE(workflow::parseDuration("4h").value(), 14400.0);
        QCOMPARE(workflow::parseDuration("90m").value(), 5400.0);
        QCOMPARE(workflow::parseDuration("90min").value(), 5400.0);
        QCOMPARE(workflow::parseDuration("2d").value(), 172800.0);
        QCOMPARE(workflow::parseDuration("3600").value(), 3600.0);
        QVERIFY(!workflow::parseDuration("4x").ok());
        QVERIFY(!workflow::parseDuration("-1h").ok());
        QVERIFY(!workflow::parseDuration("").ok());
        QCOMPARE(workflow::parseRunTime("14h", sim::RunMode::Timed).value(), 14 * 3600.0);
        QCOMPARE(workflow::parseRunTime("0", sim::RunMode::Timed).value(), 0.0);
        QCOMPARE(workflow::parseRunTime("120", sim::RunMode::Fill).value(), 120.0);
        auto pod = workflow::parseRunTime("2h", sim::RunMode::Fill);
        QVERIFY(!pod.ok());
        QVERIFY(pod.error().message.find("pod number") != std::string::npos);
    }

    void specRoundTripsThroughTheRow()
    {
        const sim::RunSpec t = timedSpec("bestfit", 7);
        const store::RunInfo info = store::runInfoOf(t, 3);
        QCOMPARE(info.mode, std::string("timed"));
        QCOMPARE(info.queue, std::string("fcfs"));
        QCOMPARE(info.backfill, std::string("easy"));
        QCOMPARE(info.seed, uint64_t(7));
        store::RunRow row = rowOf(info, 1);
        auto back = store::specFromRow(row);
        QVERIFY(back.ok());
        QCOMPARE(back->mode(), sim::RunMode::Timed);
        QCOMPARE(back->seed(), uint64_t(7));
        QCOMPARE(back->timedOptions()->p99WindowS, 1800.0);
        QCOMPARE(back->timedOptions()->slaByQos.at("LS"), 600.0);
        QCOMPARE(back->timedOptions()->backfill, sim::Backfill::Easy);
        QCOMPARE(store::optionsJson(back.value()), info.optionsJson);
        row.mode = "autoscale";
        auto bad = store::specFromRow(row);
        QVERIFY(!bad.ok());
        QVERIFY(bad.error().message.find("autoscale") != std::string::npos);
    }

    void timedWindowIsStoredAndChecked()
    {
        sim::RunSpec t = timedSpec("bestfit", 7);
        sim::TimedOptions o = *t.timedOptions();
        o.windowFromS = 3600;
        o.windowToS = 7200;
        t = sim::RunSpec::timed("bestfit", o);
        const store::RunInfo info = store::runInfoOf(t, 1);
        store::RunRow row = rowOf(info, 4);
        auto back = store::specFromRow(row);
        QVERIFY(back.ok());
        QCOMPARE(back->timedOptions()->windowFromS, 3600.0);
        QCOMPARE(back->timedOptions()->windowToS, 7200.0);
        // A window that ends before it starts is refused, naming the run.
        QString json = QString::fromStdString(info.optionsJson);
        json.replace("\"windowToS\":7200", "\"windowToS\":60");
        QVERIFY(json != QString::fromStdString(info.optionsJson));
        row.optionsJson = json.toStdString();
        auto bad = store::specFromRow(row);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().message.find("4") != std::string::npos, bad.error().message.c_str());
    }

    void autoModeFollowsTheLoadProfile()
    {
        auto profile = [](std::string resource, double capacity, std::vector<double> requested, std::size_t jobs,
                           std::size_t timed) {
            trace::LoadProfile p;
            p.resource = std::move(resource);
            p.capacity = capacity;
            p.startS = 0;
            p.endS = double(requested.size()) * 100;
            p.binS = 100;
            p.requested = std::move(requested);
            p.jobs = jobs;
            p.jobsWithTimes = timed;
            return p;
        };
        // No GPUs asked for: timed, whatever the load.
        workflow::ModeChoice c = workflow::chooseMode(profile("CPU", 100, { 1, 2 }, 10, 10));
        QCOMPARE(c.mode, sim::RunMode::Timed);
        QVERIFY(c.reason.find("no GPUs") != std::string::npos);
        // A pod list (fewer than half the jobs timed): fill.
        c = workflow::chooseMode(profile("GPU", 100, { 50, 50 }, 10, 4));
        QCOMPARE(c.mode, sim::RunMode::Fill);
        QVERIFY2(c.reason.find("6 of 10 jobs") != std::string::npos, c.reason.c_str());
        // Half timed and a peak of 19 % of the GPUs: fill; 20 %: timed.
        c = workflow::chooseMode(profile("GPU", 100, { 5, 19 }, 10, 5));
        QCOMPARE(c.mode, sim::RunMode::Fill);
        QVERIFY2(c.reason.find("19 %") != std::string::npos, c.reason.c_str());
        c = workflow::chooseMode(profile("GPU", 100, { 5, 20 }, 10, 5));
        QCOMPARE(c.mode, sim::RunMode::Timed);
        QVERIFY2(c.reason.find("20 %") != std::string::npos, c.reason.c_str());
        // From a trace: one 8-GPU node, one job of 1 GPU for an hour: 12.5 %: fill.
        trace::Trace t;
        trace::Node n;
        n.name = "g0";
        n.cpuMilli = 64000;
        n.memMiB = 1 << 18;
        n.numGpu = 8;
        n.gpuModel = 0;
        t.gpuModels = { "V100" };
        t.nodes.push_back(n);
        trace::Job j;
        j.submitTimeS = 0;
        j.runTimeS = 3600;
        j.firstTask = 0;
        j.taskCount = 1;
        trace::Task task;
        task.request = trace::TaskRequest { 1000, 1024, 1, 1000, 0 };
        t.tasks.push_back(task);
        t.jobs.push_back(j);
        QCOMPARE(workflow::suggestedMode(t), sim::RunMode::Fill);
        t.tasks[0].request.numGpu = 2; // 25 %
        QCOMPARE(workflow::suggestedMode(t), sim::RunMode::Timed);
    }

    void defaultReplayWindowIsTheBusiestWholeHours()
    {
        trace::LoadProfile p;
        p.resource = "CPU";
        p.capacity = 10;
        const double day = 86400;
        p.startS = 500;
        p.endS = 500 + 30 * day; // a month: window of 3 days
        p.requested.assign(30, 1.0);
        p.binS = day;
        p.requested[20] = 5; // the busiest 3 days: bins 18-20 (earliest of the three holding bin 20)
        auto w = workflow::defaultReplayWindow(p);
        QVERIFY(w.has_value());
        QCOMPARE(w->fromS, 500 + 18 * day);
        QCOMPARE(w->toS, 500 + 21 * day);
        // Bins of 1.5 h: ends rounded outwards to whole hours from the first submit.
        p.binS = 5400;
        p.endS = 500 + 30 * 5400.0; // 45 h span: up to two days, the whole trace
        QVERIFY(!workflow::defaultReplayWindow(p).has_value());
        p.requested.assign(80, 1.0);
        p.endS = 500 + 80 * 5400.0; // 120 h = 5 days: window 1 day = 16 bins
        p.requested[3] = 9; // busiest 16 bins: 0-15 (earliest holding bin 3): [0, 24 h)
        w = workflow::defaultReplayWindow(p);
        QCOMPARE(w->fromS, 500.0);
        QCOMPARE(w->toS, 500 + 24 * 3600.0);
        p.requested[3] = 1;
        p.requested[40] = 9; // bins 25-40: [37.5 h, 61.5 h) -> [37 h, 62 h)
        w = workflow::defaultReplayWindow(p);
        QCOMPARE(w->fromS, 500 + 37 * 3600.0);
        QCOMPARE(w->toS, 500 + 62 * 3600.0);
        QVERIFY(!workflow::defaultReplayWindow(trace::LoadProfile {}).has_value());
    }

    void executeIsTheReplayItWraps()
    {
        auto trace = generated(8, 200);
        const sim::RunSpec spec = timedSpec("bestfit");
        auto policy = policy::makePlacementPolicy("bestfit");
        auto direct = sim::runTimedReplay(*trace, *policy, *spec.timedOptions());
        QVERIFY(direct.ok());
        auto recorded = workflow::execute(spec, *trace);
        QVERIFY(recorded.ok());
        QVERIFY(recorded->timed && !recorded->fill);
        QCOMPARE(recorded->stateHash(), direct->stateHash);
        QCOMPARE(recorded->timed->waitS.p99, direct->waitS.p99);
        QVERIFY(recorded->journal);
        QCOMPARE(recorded->decisions().size(), direct->decisions.size());
        QVERIFY(recorded->decisions().decisions().back().statePos >= 0);
        // The stored spec holds no pointers (the journal is the Recording's, never the spec's).
        QVERIFY(!recorded->spec.timedOptions()->fork.policy);
        auto bare = workflow::execute(spec, *trace, workflow::ExecuteOptions { false });
        QVERIFY(bare.ok());
        QVERIFY(!bare->journal);
        QCOMPARE(bare->decisions().size(), std::size_t(0));
        QCOMPARE(bare->stateHash(), direct->stateHash);
        auto unknown = workflow::execute(timedSpec("no-such-policy"), *trace);
        QVERIFY(!unknown.ok());
        CancelToken cancel;
        cancel.cancel();
        auto cancelled = workflow::execute(spec, *trace, {}, {}, cancel);
        QVERIFY(!cancelled.ok());
        QVERIFY(cancelled.error().isCancelled());
    }

    void recordingWhileRunningEqualsStoringAfter()
    {
        // schedlab-cli records as it runs, the workbench stores on Save: the rows must not differ.
        auto trace = generated(8, 300);
        QTemporaryDir dir;
        const std::string a = dir.filePath("a.schedlab").toStdString(), b = dir.filePath("b.schedlab").toStdString();
        int64_t idA = -1, idB = -1;
        {
            auto pa = store::Project::open(a);
            auto pb = store::Project::open(b);
            QVERIFY(pa.ok() && pb.ok());
            auto ta = pa.value()->addTrace(*trace, traceFile(dir, *trace));
            auto tb = pb.value()->addTrace(*trace, traceFile(dir, *trace));
            QVERIFY(ta.ok() && tb.ok());
            workflow::RunRecorder ra(*pa.value(), ta.value()), rb(*pb.value(), tb.value());
            auto ran = ra.run(timedSpec("fgd", 9), *trace);
            QVERIFY2(ran.ok(), ran ? "" : ran.error().toString().c_str());
            idA = ra.lastRunId();
            auto outcome = workflow::execute(timedSpec("fgd", 9), *trace);
            QVERIFY(outcome.ok());
            auto stored = rb.store(outcome.value());
            QVERIFY(stored.ok());
            idB = stored.value();
        }
        const std::string rowsA = test::runRows(a, idA), rowsB = test::runRows(b, idB);
        QVERIFY(rowsA.find("run_journals: 1 row(s)") != std::string::npos);
        QVERIFY(rowsA.find("decisions: 0 row(s)") == std::string::npos);
        QVERIFY(rowsA.find("status=finished") != std::string::npos);
        QCOMPARE(rowsA, rowsB);
    }

    void aFailedRunIsMarked()
    {
        auto trace = generated(4, 300); // long enough for the replay to poll its cancel token
        QTemporaryDir dir;
        auto p = store::Project::open(dir.filePath("p.schedlab").toStdString());
        QVERIFY(p.ok());
        workflow::RunRecorder r(*p.value(), p.value()->addTrace(*trace, traceFile(dir, *trace)).value());
        CancelToken cancel;
        cancel.cancel();
        QVERIFY(!r.run(timedSpec("bestfit"), *trace, {}, cancel).ok());
        auto rows = p.value()->runs();
        QVERIFY(rows.ok());
        QCOMPARE(rows->size(), std::size_t(1));
        QCOMPARE(rows->front().status, std::string("cancelled"));
        QVERIFY(!r.store(workflow::RunOutcome {}).ok()); // nothing to store
    }

    void sessionRoundsFollowOneSeedRule()
    {
        workflow::SessionOptions s;
        s.rounds = 3;
        s.base.train.seed = 1000;
        s.base.train.episodes = 4;
        s.base.train.epsilonStart = 1.0;
        const rl::RoundOptions r0 = workflow::roundOptions(s, 0, "", -1, true);
        const rl::RoundOptions r1 = workflow::roundOptions(s, 1, "/m/round-5.slq", 5, true);
        const rl::RoundOptions r2 = workflow::roundOptions(s, 2, "/m/round-6.slq", 6, true);
        QCOMPARE(r0.train.seed, uint64_t(1000));
        QCOMPARE(r1.train.seed, uint64_t(1004));
        QCOMPARE(r2.train.seed, uint64_t(1008));
        QCOMPARE(r0.train.epsilonStart, 1.0); // fresh: full exploration
        QCOMPARE(r1.train.epsilonStart, 0.1); // fine-tuning explores less
        QCOMPARE(r1.parentCheckpoint, std::string("/m/round-5.slq"));
        QCOMPARE(r2.parentRound, int64_t(6));
        QVERIFY(r0.outCheckpoint.empty()); // with a project: checkpointDir/round-<id>
        s.outCheckpoint = "/tmp/x.slq";
        QCOMPARE(workflow::roundOptions(s, 1, "", -1, false).outCheckpoint, std::string("/tmp/x.slq.2"));
        s.rounds = 1;
        QCOMPARE(workflow::roundOptions(s, 0, "", -1, false).outCheckpoint, std::string("/tmp/x.slq"));
        s.base.parentCheckpoint = "/m/parent.slq";
        QCOMPARE(workflow::roundOptions(s, 0, "", -1, true).train.epsilonStart, 0.1);
        QVERIFY(!workflow::resolveParent("3", nullptr).ok());
        QCOMPARE(workflow::resolveParent("a.slq", nullptr).value().first, std::string("a.slq"));
    }

    void storedRunsOpenForIncidentReplay()
    {
        auto trace = generated(8, 300);
        QTemporaryDir dir;
        const std::string path = dir.filePath("p.schedlab").toStdString();
        auto p = store::Project::open(path);
        QVERIFY(p.ok());
        const int64_t traceId = p.value()->addTrace(*trace, traceFile(dir, *trace)).value();
        workflow::RunRecorder rec(*p.value(), traceId);
        auto ran = rec.run(timedSpec("firstfit"), *trace);
        QVERIFY(ran.ok());
        const int64_t id = rec.lastRunId();
        auto fromJournal = workflow::openStoredRun(*p.value(), id);
        QVERIFY2(fromJournal.ok(), fromJournal ? "" : fromJournal.error().toString().c_str());
        QVERIFY(fromJournal->index->fromStoredJournal);
        QVERIFY(fromJournal->journalFallback.empty());
        QCOMPARE(fromJournal->index->timed->stateHash, ran->stateHash()); // the final hash comes back with the run
        auto replayed = workflow::openStoredRun(*p.value(), id, nullptr, workflow::OpenRunOptions { true });
        QVERIFY(replayed.ok());
        QVERIFY(!replayed->index->fromStoredJournal);
        QCOMPARE(replayed->index->decisionsVerified, int64_t(ran->decisions().size()));
        QCOMPARE(replayed->index->spec.timedOptions()->p99WindowS, 1800.0);
        auto none = workflow::openStoredRun(*p.value(), id + 100);
        QVERIFY(!none.ok());
        QVERIFY(none.error().message.find("no run " + std::to_string(id + 100)) != std::string::npos);
        // A run of this session with its journal: no replay.
        auto session = workflow::indexOutcome(ran.value(), trace);
        QVERIFY(session.ok());
        QVERIFY(session.value()->fromStoredJournal);
        QCOMPARE(session.value()->decisions.size(), ran->decisions().size());
        auto bare = workflow::execute(timedSpec("firstfit"), *trace, workflow::ExecuteOptions { false });
        auto replayedSession = workflow::indexOutcome(bare.value(), trace);
        QVERIFY(replayedSession.ok());
        QVERIFY(!replayedSession.value()->fromStoredJournal);
        QCOMPARE(replayedSession.value()->decisions.size(), ran->decisions().size());
    }

    void oneAxisConversionForEveryMode()
    {
        sim::TimedResult t;
        for (double at : { 100.0, 3700.0, 7300.0 }) {
            sim::SeriesPoint p;
            p.timeS = at;
            p.p99WaitS = at == 3700.0 ? -1 : at / 100; // no start in the window at 3700
            p.gpuUtil = 0.5;
            p.cpuFragRate = 0.25;
            t.series.push_back(p);
        }
        const workflow::RunAxis timed(nullptr, &t);
        QCOMPARE(timed.kind(), sim::XAxisKind::Seconds);
        QVERIFY(!timed.counts());
        QCOMPARE(timed.plotXOfSeconds(3700), 1.0);
        QCOMPARE(timed.plotXOfDecision(7300), 2.0);
        QCOMPARE(timed.decisionXOfPlot(1.5), 100 + 1.5 * 3600);
        QCOMPARE(timed.secondsOfHours(2), 7300.0);
        const workflow::NamedSeries wait = workflow::panelSeries(nullptr, &t, workflow::Panel::Latency, {}, {}, 1800);
        QCOMPARE(wait.name, std::string("p99 wait (s), 30 min window"));
        QCOMPARE(wait.x, (std::vector<double> { 0.0, 2.0 })); // the tick without a start is left out
        QCOMPARE(wait.y, (std::vector<double> { 1.0, 73.0 }));
        const workflow::NamedSeries frag = workflow::panelSeries(nullptr, &t, workflow::Panel::Fragmentation, {}, workflow::FragmentationKind::Cpu);
        QCOMPARE(frag.name, std::string("CPU fragmentation rate (%)"));
        QCOMPARE(frag.y, (std::vector<double> { 25.0, 25.0, 25.0 }));

        sim::FillResult f;
        f.pods = 30;
        for (int i = 1; i <= 2; ++i) {
            sim::FillPoint p;
            p.arrivedPct = i;
            p.arrivedExactPct = i + 0.25;
            p.podsArrived = 10 * i;
            p.gpuAllocPct = 40.0 * i;
            p.fragAmount = 1500;
            f.curve.push_back(p);
        }
        const workflow::RunAxis fill(&f, nullptr);
        QCOMPARE(fill.kind(), sim::XAxisKind::ArrivedPct);
        QVERIFY(fill.counts());
        QCOMPARE(fill.plotXOfDecision(9), 1.25); // pod 9 is the 10th: the first curve point
        QCOMPARE(fill.plotXOfDecision(15), 2.25);
        QCOMPARE(fill.plotXOfDecision(25), 2.25); // beyond the curve: its last point
        QCOMPARE(fill.decisionXOfPlot(1.5), 19.0);
        QCOMPARE(fill.decisionXOfPlot(5), 29.0); // beyond the curve: the last pod
        const workflow::NamedSeries alloc = workflow::panelSeries(&f, nullptr, workflow::Panel::Latency);
        QCOMPARE(alloc.name, std::string("GPU allocation (%)"));
        QCOMPARE(alloc.y, (std::vector<double> { 40.0, 80.0 }));
        QCOMPARE(workflow::panelSeries(&f, nullptr, workflow::Panel::Fragmentation).y, (std::vector<double> { 1.5, 1.5 }));
        QVERIFY(!workflow::panelsHaveChoices(sim::RunMode::Fill));
        QVERIFY(workflow::panelsHaveChoices(sim::RunMode::Timed));
    }

    void suggestedModeFollowsTheTimes()
    {
        auto trace = generated(4, 20);
        QCOMPARE(workflow::suggestedMode(*trace), sim::RunMode::Timed);
        trace::Trace pods = *trace;
        for (trace::Job& j : pods.jobs)
            j.runTimeS = -1;
        QCOMPARE(workflow::suggestedMode(pods), sim::RunMode::Fill);
    }

    void orphanCheckpointsAreTheFilesNoFinishedRoundNames()
    {
        QTemporaryDir dir;
        for (const char* f : { "round-1.slq", "round-2.slq", "round-3.slq.partial", "notes.txt" }) {
            QFile out(dir.filePath(f));
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write("x");
        }
        store::RoundRow done, failed;
        done.id = 1;
        done.status = "finished";
        done.checkpoint = dir.filePath("round-1.slq").toStdString();
        failed.id = 2;
        failed.status = "failed"; // killed after its file was in place: no checkpoint in its row
        const std::vector<std::string> orphans = workflow::orphanCheckpoints({ done, failed }, dir.path().toStdString());
        QCOMPARE(orphans, (std::vector<std::string> { "round-2.slq", "round-3.slq.partial" }));
        QVERIFY(workflow::orphanCheckpoints({ done }, dir.filePath("missing").toStdString()).empty());
    }
};

QTEST_GUILESS_MAIN(TestWorkflow)
#include "test_workflow.moc"
