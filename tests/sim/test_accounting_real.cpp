// The accounting logs in ../shared/traces (label `real`): counts from their SOURCES.md and from
// awk over the files (commands next to each figure), then a logged and a BestFit replay of each.

#include "test_util.h"

#include "sim/timed_replay.h"
#include "trace/trace_loader.h"

#include <QtTest>

using namespace schedlab;
using namespace schedlab::trace;
using schedlab::test::realTrace;

namespace {
LoadedTrace mustLoad(const std::string& relative)
{
    auto r = loadTrace({ realTrace(relative) });
    if (!r)
        qFatal("%s", r.error().toString().c_str());
    return std::move(r).value();
}
int64_t note(const LoadedTrace& t, const char* key)
{
    auto it = t.diagnostics.notes().find(key);
    return it == t.diagnostics.notes().end() ? 0 : it->second;
}
/// Logged and BestFit timed replays: the logged one reproduces every decision (node sizes come
/// from the log), both start every job that has a run time.
void replaysBoth(const Trace& t, int64_t expectedSkipped)
{
    for (const char* name : { "logged", "bestfit" }) {
        auto p = policy::makePlacementPolicy(name);
        sim::Recording rec;
        rec.decisions = false;
        rec.heat = false;
        auto r = sim::runTimedReplay(t, *p, sim::TimedOptions {}, rec);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        QVERIFY2(r->divergences.empty(), r->firstDivergence.c_str());
        QCOMPARE(r->skipped, expectedSkipped);
        QCOMPARE(r->failed, int64_t(0));
        QCOMPARE(r->completed, int64_t(t.jobs.size()) - expectedSkipped);
    }
}
} // namespace

class TestAccountingReal : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { SCHEDLAB_REQUIRE_REAL_TRACES(); }

    void phillips()
    {
        const LoadedTrace l = mustLoad("slurm-xdmod-ccr-2016/phillips.log");
        const Trace& t = l.trace;
        QCOMPARE(t.sourceFormat, std::string("slurm"));
        QCOMPARE(t.jobs.size(), std::size_t(4285)); // SOURCES.md; wc -l
        QCOMPARE(t.metadata.at("slurm.layout"), std::string("xdmod-26"));
        // awk -F'|' '{split($17,a," "); print a[1]}' | sort | uniq -c
        QCOMPARE(t.metadata.at("slurm.states"), std::string("COMPLETED 2324, FAILED 1717, CANCELLED 243, TIMEOUT 1"));
        QCOMPARE(t.nodes.size(), std::size_t(46)); // distinct hosts of the expanded node lists
        QCOMPARE(t.tasks.size(), std::size_t(4373)); // one per listed node; 1 per "None assigned" job
        QCOMPARE(note(l, "reqmem-per-cpu-flag"), int64_t(4238)); // SOURCES.md: 4,238 rows
        QCOMPARE(note(l, "eligible-after-submit"), int64_t(1)); // SOURCES.md: 1 row
        QCOMPARE(note(l, "never-started"), int64_t(239)); // SOURCES.md: 239 "None assigned"
        QCOMPARE(t.totalGpus(), int64_t(2)); // the 2 GPU jobs on one node
        QCOMPARE(l.diagnostics.total(), int64_t(0));
        replaysBoth(t, 239);
    }

    void pozidriv()
    {
        const LoadedTrace l = mustLoad("slurm-xdmod-ccr-2016/pozidriv.log.gz");
        QCOMPARE(l.trace.jobs.size(), std::size_t(11704));
        QCOMPARE(l.trace.nodes.size(), std::size_t(105));
        QCOMPARE(note(l, "reqmem-per-cpu-flag"), int64_t(10626)); // SOURCES.md
        QCOMPARE(note(l, "eligible-after-submit"), int64_t(40));
        QCOMPARE(note(l, "never-started"), int64_t(419));
        QVERIFY(l.trace.metadata.at("slurm.states").find("PREEMPTED 86") != std::string::npos);
        QCOMPARE(l.diagnostics.total(), int64_t(0)); // Partition_Limit time limits are "unknown", not errors
        replaysBoth(l.trace, 419);
    }

    void kabre()
    {
        const LoadedTrace l = mustLoad("slurm-kabre-2024/sacct.csv.gz");
        const Trace& t = l.trace;
        QCOMPARE(t.jobs.size(), std::size_t(30376)); // SOURCES.md: 30,376 jobs, exact duplicates kept
        QCOMPARE(t.metadata.at("slurm.states"), std::string("FAILED 18156, COMPLETED 9237, CANCELLED 2111, TIMEOUT 872"));
        QCOMPARE(note(l, "run-time-estimated"), int64_t(30376)); // no Start/End anywhere
        QCOMPARE(t.nodes.size(), std::size_t(1)); // no node list: one pool
        QCOMPARE(t.jobs[0].requestedTimeS, 7 * 86400.0 + 4 * 3600); // 7-04:00:00
        QCOMPARE(t.qosClasses.size(), std::size_t(2));
        QCOMPARE(l.diagnostics.total(), int64_t(0));
        replaysBoth(t, 0);
    }

    void awsSacctWithSteps()
    {
        const LoadedTrace l = mustLoad("hpc-aws-testcluster-2022/sacct-output-v1.txt");
        // awk -F'|' '$2 !~ /\./' | wc -l -> 483 jobs; the other 395 rows are .batch steps
        QCOMPARE(l.trace.jobs.size(), std::size_t(483));
        QCOMPARE(l.trace.metadata.at("slurm.stepsFolded"), std::string("395"));
        QCOMPARE(l.trace.metadata.at("slurm.layout"), std::string("hpc-cost-simulator-25"));
        QCOMPARE(l.trace.metadata.at("slurm.states"), std::string("OUT_OF_MEMORY 261, FAILED 129, CANCELLED 91, COMPLETED 2"));
        replaysBoth(l.trace, 0);
    }

    void lsbAcct()
    {
        const LoadedTrace l = mustLoad("hpc-aws-testcluster-2022/lsb.acct.16");
        QCOMPARE(l.trace.sourceFormat, std::string("lsf"));
        QCOMPARE(l.trace.jobs.size(), std::size_t(82)); // SOURCES.md: 82 JOB_FINISH
        QCOMPARE(l.trace.metadata.at("epoch.unixS"), std::string("1643910037")); // earliest submitTime
        QCOMPARE(l.diagnostics.total(), int64_t(0));
        // numProcessors (field 7) summed: each slot a task cpu on its host
        int64_t slotCount = 0;
        for (const Task& task : l.trace.tasks)
            slotCount += task.request.cpuMilli / 1000;
        QCOMPARE(slotCount, int64_t(63 + 2 * 12 + 5 * 2 + 20 + 3 + 30 + 4 * 4 + 2 * 6 + 3 * 8)); // uniq -c of field 7
        replaysBoth(l.trace, 0);
    }
};

QTEST_APPLESS_MAIN(TestAccountingReal)
#include "test_accounting_real.moc"
