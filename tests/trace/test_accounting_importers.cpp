// The Slurm sacct and LSF lsb.acct importers on tiny hand-made logs; every expectation worked
// out by hand in the comments next to it.

#include "test_util.h"

#include "trace/accounting_log.h"
#include "trace/lsf_importer.h"
#include "trace/trace_loader.h"

#include <QtTest>

#include <algorithm>

using namespace schedlab;
using namespace schedlab::trace;
using schedlab::test::writeFile;

namespace {

const char* const kSacct = "JobID|JobIDRaw|User|Partition|QOS|Submit|Eligible|Start|End|Elapsed|Timelimit|State|NNodes|NCPUS|ReqMem|AllocTRES|NodeList|JobName|Priority\n"
                           "100|100|alice|batch|normal|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T01:00:10|01:00:00|02:00:00|COMPLETED|1|4|1000Mc|cpu=4,mem=4000M,node=1|cn01|a|10\n"
                           "100.batch|100.batch||||2024-01-01T00:00:10|2024-01-01T00:00:10|2024-01-01T00:00:10|2024-01-01T01:00:10|01:00:00||COMPLETED|1|4||cpu=4,mem=4000M,node=1|cn01|batch|\n"
                           "100.extern|100.extern||||2024-01-01T00:00:10|2024-01-01T00:00:10|2024-01-01T00:00:10|2024-01-01T01:00:10|01:00:00||COMPLETED|1|4||cpu=4,mem=4000M,node=1|cn01|extern|\n"
                           "101|101|bob|batch|high|2024-01-01T00:10:00|2024-01-01T00:20:00|2024-01-01T00:30:00|2024-01-01T00:40:00|00:10:00|1-00:00:00|CANCELLED by 1000|2|16|8000Mn|cpu=16,mem=16000M,node=2,gres/gpu=2|cn[01-02]|b|5\n"
                           "102_3|102|alice|gpu|normal|2024-01-01T00:05:00|2024-01-01T00:05:00|2024-01-01T00:30:00|Unknown|00:20:00|UNLIMITED|RUNNING|1|2|2147485648Mn||cn02|c|0\n"
                           "103|103|carol|batch|normal|2024-01-01T00:06:00|2024-01-01T00:06:00|2024-01-01T02:00:00|2024-01-01T02:00:00|00:00:00|01:00:00|CANCELLED by 1001|1|1|100Mn||None assigned|d|0\n"
                           "999.0|999.0||||2024-01-01T00:00:10|2024-01-01T00:00:10|2024-01-01T00:00:10|2024-01-01T01:00:10|01:00:00||COMPLETED|1|4|||cn01|x|\n";

Result<LoadedTrace> load(const std::string& name, const std::string& text, ImportOptions options = {})
{
    static QTemporaryDir dir;
    return loadTrace({ writeFile(dir, name, text) }, options);
}

const Task& taskOf(const Trace& t, std::size_t job, std::size_t i = 0) { return t.tasks[t.jobs[job].firstTask + i]; }

} // namespace

class TestAccountingImporters : public QObject {
    Q_OBJECT
private slots:
    void sacctWithHeader()
    {
        auto r = load("sacct.txt", kSacct);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        const Trace& t = r->trace;
        QCOMPARE(t.sourceFormat, std::string("slurm"));
        QCOMPARE(r->files.front().kind, std::string("slurm-sacct"));
        QCOMPARE(t.jobs.size(), std::size_t(4)); // 100, 101, 102_3, 103; the three steps are not jobs
        QCOMPARE(t.metadata.at("epoch.unixS"), std::string("1704067200")); // 2024-01-01T00:00:00 UTC
        QCOMPARE(t.metadata.at("slurm.states"), std::string("CANCELLED 2, COMPLETED 1, RUNNING 1"));
        QCOMPARE(t.metadata.at("slurm.stepsFolded"), std::string("2"));
        QCOMPARE(r->diagnostics.countOf("step-without-job"), int64_t(1)); // 999.0
        QCOMPARE(r->diagnostics.notes().at("eligible-after-submit"), int64_t(1));
        QCOMPARE(r->diagnostics.notes().at("reqmem-per-cpu-flag"), int64_t(1));
        QCOMPARE(r->diagnostics.notes().at("never-started"), int64_t(1));

        // 100: submit 0, started 10 s later on cn01 for an hour, limit 2 h, 4 CPUs, AllocTRES memory.
        const Job& a = t.jobs[0];
        QCOMPARE(a.id.value, int64_t(100));
        QCOMPARE(a.submitTimeS, 0.0);
        QCOMPARE(a.runTimeS, 3600.0);
        QCOMPARE(a.requestedTimeS, 7200.0);
        QCOMPARE(a.status, int16_t(1));
        QCOMPARE(a.priority, 10);
        QCOMPARE(t.users[std::size_t(a.user)], std::string("alice"));
        QCOMPARE(t.qosClasses[std::size_t(a.qos)], std::string("normal"));
        QCOMPARE(taskOf(t, 0).request.cpuMilli, int64_t(4000));
        QCOMPARE(taskOf(t, 0).request.memMiB, int64_t(4000));
        QCOMPARE(taskOf(t, 0).logged.startTimeS, 10.0);
        QCOMPARE(taskOf(t, 0).logged.endTimeS, 3610.0);
        QCOMPARE(t.nodes[std::size_t(taskOf(t, 0).logged.node.value)].name, std::string("cn01"));

        // 101: eligible at 00:20 (its arrival: 1200 s), ran 00:30-00:40 on cn01 and cn02; 16 CPUs,
        // 16000 MiB and 2 GPUs over 2 nodes = 8 CPUs, 8000 MiB, 1 GPU per task; CANCELLED = 5.
        const Job& b = t.jobs[1];
        QCOMPARE(b.submitTimeS, 1200.0);
        QCOMPARE(b.runTimeS, 600.0);
        QCOMPARE(b.requestedTimeS, 86400.0);
        QCOMPARE(b.status, int16_t(5));
        QCOMPARE(b.taskCount, uint32_t(2));
        for (int k = 0; k < 2; ++k) {
            QCOMPARE(taskOf(t, 1, k).request.cpuMilli, int64_t(8000));
            QCOMPARE(taskOf(t, 1, k).request.memMiB, int64_t(8000));
            QCOMPARE(taskOf(t, 1, k).request.numGpu, 1);
            QCOMPARE(taskOf(t, 1, k).request.gpuMilli, 1000);
            QCOMPARE(taskOf(t, 1, k).logged.startTimeS, 1800.0);
        }
        QCOMPARE(t.nodes[std::size_t(taskOf(t, 1, 1).logged.node.value)].name, std::string("cn02"));

        // 102_3 (JobIDRaw 102): running, no end: run time unknown; 2^31 + 2000 per-CPU artefact =
        // 2000 MiB per CPU x 2 CPUs; UNLIMITED = no requested time.
        const Job& c = t.jobs[2];
        QCOMPARE(c.id.value, int64_t(102));
        QCOMPARE(c.runTimeS, -1.0);
        QCOMPARE(c.requestedTimeS, -1.0);
        QCOMPARE(taskOf(t, 2).request.memMiB, int64_t(4000));
        QCOMPARE(taskOf(t, 2).logged.startTimeS, 1800.0);
        QCOMPARE(taskOf(t, 2).logged.endTimeS, -1.0);
        QCOMPARE(t.jobName(c), std::string("c"));

        // 103: "None assigned": cancelled while pending, never started.
        QCOMPARE(t.jobs[3].runTimeS, -1.0);
        QCOMPARE(taskOf(t, 3).logged.startTimeS, -1.0);
        QVERIFY(!taskOf(t, 3).logged.node.valid());

        // Sizes from the log: cn01 holds 100 [10, 3610) and 101 [1800, 2400) at once: 12 CPUs,
        // 12000 MiB, 1 GPU. cn02 holds 101 and 102 [1800, end of log): 10 CPUs, 12000 MiB, 1 GPU.
        QCOMPARE(t.nodes.size(), std::size_t(2));
        QCOMPARE(t.nodes[0].cpuMilli, int64_t(12000));
        QCOMPARE(t.nodes[0].memMiB, int64_t(12000));
        QCOMPARE(t.nodes[0].numGpu, 1);
        QCOMPARE(t.nodes[1].cpuMilli, int64_t(10000));
        QCOMPARE(t.nodes[1].memMiB, int64_t(12000));
        QVERIFY(t.metadata.at("slurm.capacity").find("inferred") != std::string::npos);
    }

    void sacctTimeZone()
    {
        ImportOptions o;
        o.timezone = "America/New_York";
        auto r = load("sacct-ny.txt", kSacct, o);
        QVERIFY(r.ok());
        // Midnight in New York in January is 05:00 UTC; relative times do not change.
        QCOMPARE(r->trace.metadata.at("epoch.unixS"), std::string("1704085200"));
        QCOMPARE(r->trace.metadata.at("slurm.timezone"), std::string("America/New_York"));
        QCOMPARE(r->trace.jobs[1].submitTimeS, 1200.0);
        o.timezone = "Atlantis/Capital";
        auto bad = load("sacct-bad-zone.txt", kSacct, o);
        QVERIFY(!bad.ok());
        QVERIFY(bad.error().message.find("--timezone") != std::string::npos);
    }

    void sacctHeaderlessXdmod()
    {
        // Open XDMoD's 26-field layout; the second row never ran; the third has a field missing.
        const std::string text = "7|7|c1|p|q|acct|g|10|u|20|2016-12-22T07:15:12|2016-12-22T07:15:12|2016-12-22T07:15:13|2016-12-22T07:16:13|00:01:00|0:0|COMPLETED|1|8|8|2147486648Mn|cpu=8,node=1|billing=8,cpu=8,mem=24000M,node=1|1-06:00:00|n1|h\n"
                                 "8|8|c1|p|q|acct|g|10|u|20|2016-12-22T07:15:20|2016-12-22T07:15:20|2016-12-22T08:00:00|2016-12-22T08:00:00|00:00:00|0:0|CANCELLED by 20|1|8|8|2147486648Mn|cpu=8,node=1||1-06:00:00|None assigned|h\n"
                                 "9|9|c1|p|q|acct|g|10|u|20|2016-12-22T07:15:20|2016-12-22T07:15:20|2016-12-22T08:00:00|2016-12-22T08:00:00|00:00:00|0:0|COMPLETED|1|8|8|8000Mn|cpu=8,node=1|1-06:00:00|n1|h\n";
        auto r = load("xdmod.log", text);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        QCOMPARE(r->trace.metadata.at("slurm.layout"), std::string("xdmod-26"));
        QCOMPARE(r->trace.jobs.size(), std::size_t(2));
        QCOMPARE(r->diagnostics.countOf("field-count"), int64_t(1));
        QCOMPARE(r->diagnostics.kept().front().line, int64_t(3));
        QCOMPARE(taskOf(r->trace, 0).request.memMiB, int64_t(24000)); // AllocTRES over ReqMem's 3000 x 8
        QCOMPARE(r->trace.jobs[0].runTimeS, 60.0);
        QCOMPARE(r->trace.jobs[0].group, 10);
        QCOMPARE(r->trace.metadata.at("slurm.clusters"), std::string("c1 2"));
    }

    // `sacct --parsable2 --delimiter=';'`: the header says which delimiter; the same jobs as '|'.
    // Without a header it takes --sacct-delimiter, and the error says what the rows were split at.
    void sacctOtherDelimiter()
    {
        std::string semi = kSacct, tab = kSacct;
        std::replace(semi.begin(), semi.end(), '|', ';');
        std::replace(tab.begin(), tab.end(), '|', '\t');
        auto pipe = load("pipe.txt", kSacct);
        QVERIFY(pipe.ok());
        for (const std::string* text : { &semi, &tab }) {
            auto r = load("other.txt", *text);
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
            QCOMPARE(r->files.front().kind, std::string("slurm-sacct"));
            QVERIFY(r->trace.jobs == pipe->trace.jobs);
            QVERIFY(r->trace.tasks == pipe->trace.tasks);
            QVERIFY(r->trace.nodes == pipe->trace.nodes);
            QCOMPARE(r->diagnostics.notes().count(text == &semi ? "sacct --delimiter ';' (from the header)" : "sacct --delimiter '\\t' (from the header)"),
                std::size_t(1));
        }
        const std::string rows = "7;2024-01-01T00:00:00;COMPLETED;cn1\n";
        auto noHeader = load("rows.txt", rows);
        QVERIFY(!noHeader.ok());
        QVERIFY2(noHeader.error().message.find("the fields were split at '|': output of sacct --delimiter needs --sacct-delimiter")
                != std::string::npos,
            noHeader.error().message.c_str());
        ImportOptions o;
        o.sacctFields = "JobID,Submit,State,NodeList";
        o.sacctDelimiter = ';';
        auto given = load("rows2.txt", rows, o);
        QVERIFY2(given.ok(), given.ok() ? "" : given.error().toString().c_str());
        QCOMPARE(given->trace.jobs.size(), std::size_t(1));
        QCOMPARE(given->trace.nodes[0].name, std::string("cn1"));
    }

    void sacctUnknownLayoutAsksForFields()
    {
        const std::string text = "42|2024-03-01T10:00:00|2024-03-01T10:05:00|COMPLETED|2|00:10:00\n";
        auto r = load("odd.txt", text);
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.find("--sacct-fields") != std::string::npos);
        QCOMPARE(r.error().line, int64_t(1));
        ImportOptions o;
        o.sacctFields = "JobID,Submit,Start,State,NCPUS,Elapsed";
        auto ok = load("odd2.txt", text, o);
        QVERIFY2(ok.ok(), ok.ok() ? "" : ok.error().toString().c_str());
        QCOMPARE(ok->trace.jobs.size(), std::size_t(1));
        QCOMPARE(ok->trace.jobs[0].runTimeS, 600.0); // Elapsed when End is not given
        QCOMPARE(taskOf(ok->trace, 0).logged.startTimeS, 300.0);
        QCOMPARE(ok->trace.nodes.size(), std::size_t(1)); // no NodeList: one pool
        QCOMPARE(ok->trace.nodes[0].name, std::string("pool"));
        QCOMPARE(ok->trace.nodes[0].cpuMilli, int64_t(2000));
    }

    // A job array as Slurm records it (slurm.schedmd.com/job_array.html): tasks split off the
    // array's record get ids of their own (4103948, ...); the pending remainder keeps the array's
    // id, and so does the last task once it starts. Here two exports were concatenated: the one
    // taken at 10:20 still shows 4103947_[3-4%1] pending (with the start the scheduler expected
    // and the node it planned), the later one the tasks that ran.
    void sacctArrays()
    {
        const std::string text = "JobIDRaw|JobID|JobName|State|Submit|Start|End|NNodes|NCPUS|ReqMem|NodeList\n"
                                 "4103948|4103947_1|sweep|COMPLETED|2021-03-01T10:00:00|2021-03-01T10:00:02|2021-03-01T10:30:02|1|8|16000M|cn01\n"
                                 "4103949|4103947_2|sweep|COMPLETED|2021-03-01T10:00:00|2021-03-01T10:00:02|2021-03-01T10:40:02|1|8|16000M|cn02\n"
                                 "4103947|4103947_[3-4%1]|sweep|PENDING|2021-03-01T10:00:00|2021-03-01T10:30:02|Unknown|1|8|16000M|cn01\n"
                                 "4103950|4103947_3|sweep|COMPLETED|2021-03-01T10:00:00|2021-03-01T10:30:02|2021-03-01T11:00:02|1|8|16000M|cn01\n"
                                 "4103947|4103947_4||COMPLETED|2021-03-01T10:00:00|2021-03-01T10:40:02|2021-03-01T11:10:02|1|8|16000M|cn02\n";
        auto r = load("array.txt", text);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        const Trace& t = r->trace;
        QCOMPARE(t.jobs.size(), std::size_t(5)); // every row its own job, by its JobID
        QCOMPARE(r->diagnostics.total(), int64_t(0));
        // The pending range is an arrival without a run, on no node, whatever its row says.
        QCOMPARE(t.jobs[2].runTimeS, -1.0);
        QCOMPARE(taskOf(t, 2).logged.startTimeS, -1.0);
        QVERIFY(!taskOf(t, 2).logged.node.valid());
        QCOMPARE(r->diagnostics.notes().at("slurm-array-pending-range (123_[4-9]: tasks not started; one arrival without a run)"), int64_t(1));
        // 4103947_4 took the array's id: it shares JobIDRaw 4103947 with the range, and is named by its JobID.
        QCOMPARE(t.jobs[4].id.value, int64_t(4103947));
        QCOMPARE(t.jobName(t.jobs[4]), std::string("4103947_4"));
        QCOMPARE(t.jobs[4].runTimeS, 1800.0);
        QCOMPARE(r->diagnostics.notes().at("slurm-jobidraw-shared (array rows under different JobIDs: each its own job; node sizes "
                                           "count one allocation once)"),
            int64_t(1));
        // Node sizes: cn01 runs _1 until 10:30:02 and _3 from then (an end frees before a start):
        // 8 CPUs, not 16 with the range read as running from its expected start; cn02 _2 then _4: 8.
        QCOMPARE(t.nodes.size(), std::size_t(2));
        for (const Node& n : t.nodes) {
            QCOMPARE(n.cpuMilli, int64_t(8000));
            QCOMPARE(n.memMiB, int64_t(16000));
        }
    }

    // Rows recording one allocation more than once (sharing a JobIDRaw) hold it once on a node:
    // two rows of allocation 7 overlap on node 0 (4 and 6 CPUs; 5000 and 3000 MiB), a row of its
    // own (2 CPUs) overlaps both. Peak: max(4, 6) + 2 = 8 CPUs, max(5000, 3000) + 1000 MiB; summed
    // it would be 12 CPUs and 9000 MiB. Without groups, the sum.
    void inferredSizesCountAnAllocationOnce()
    {
        Trace t;
        t.nodes.resize(1);
        auto add = [&](int64_t cpu, int64_t mem, double from, double to) {
            Job j;
            j.firstTask = uint32_t(t.tasks.size());
            j.taskCount = 1;
            Task task;
            task.request.cpuMilli = cpu;
            task.request.memMiB = mem;
            task.logged = { NodeId { 0 }, from, to };
            t.tasks.push_back(task);
            t.jobs.push_back(j);
        };
        add(4000, 5000, 0, 100);
        add(6000, 3000, 50, 150);
        add(2000, 1000, 0, 200);
        Trace grouped = t;
        inferNodeCapacities(grouped, "x", { 7, 7, -1 });
        QCOMPARE(grouped.nodes[0].cpuMilli, int64_t(8000));
        QCOMPARE(grouped.nodes[0].memMiB, int64_t(6000));
        inferNodeCapacities(t, "x");
        QCOMPARE(t.nodes[0].cpuMilli, int64_t(12000));
        QCOMPARE(t.nodes[0].memMiB, int64_t(9000));
    }

    void sacctEstimatesWithoutStartAndEnd()
    {
        // The Kabré export's columns. Job 1: 7200 CPU-s on 2 CPUs = 3600 s (its limit, not over);
        // waited 600 / 2 = 300 s. Job 2: 100000 CPU-s on 1 CPU is over its 10 min limit: 600 s.
        const std::string text = "ConsumedEnergyRaw|CPUTimeRAW|ReqCPUS|ReqMem|ReqNodes|ResvCPURAW|Submit|Timelimit|TimelimitRaw|Partition|Priority|QOS|State\n"
                                 "0|7200|2|100Mc|1|600|2024-01-01T00:00:00|01:00:00|60|p|1|normal|COMPLETED\n"
                                 "0|100000|1|1Gn|1|0|2024-01-01T00:01:00|00:10:00|10|p|1|normal|TIMEOUT\n";
        auto r = load("kabre.csv", text);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        const Trace& t = r->trace;
        QCOMPARE(t.jobs[0].runTimeS, 3600.0);
        QCOMPARE(taskOf(t, 0).logged.startTimeS, 300.0);
        QCOMPARE(taskOf(t, 0).request.memMiB, int64_t(200));
        QCOMPARE(t.jobs[1].runTimeS, 600.0);
        QCOMPARE(taskOf(t, 1).logged.startTimeS, 60.0);
        QCOMPARE(r->diagnostics.notes().at("run-time-capped-at-limit"), int64_t(1));
        QCOMPARE(r->diagnostics.notes().at("run-time-estimated"), int64_t(2));
        // One pool: both run during [300, 660): 3 CPUs, 200 + 1024 MiB.
        QCOMPARE(t.nodes.size(), std::size_t(1));
        QCOMPARE(t.nodes[0].cpuMilli, int64_t(3000));
        QCOMPARE(t.nodes[0].memMiB, int64_t(1224));
        QVERIFY(t.metadata.at("slurm.estimated").find("CPUTimeRAW / CPUs") != std::string::npos);
    }

    void sacctBadInput()
    {
        // Every row rejected: the error says so and names the first reason with its line.
        auto r = load("bad.txt", "JobID|Submit|State\n1|yesterday|COMPLETED\n2|2024-13-01T00:00:00|FAILED\n");
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("every row") != std::string::npos, r.error().message.c_str());
        QVERIFY(r.error().message.find("Submit") != std::string::npos);
        QCOMPARE(r.error().line, int64_t(2));
        // No Submit field: fatal at the header.
        auto noSubmit = load("nosubmit.txt", "JobID|State\n1|COMPLETED\n");
        QVERIFY(!noSubmit.ok());
        QVERIFY(noSubmit.error().message.find("Submit") != std::string::npos);
        // Duplicate job ids: the first kept, the second a warning naming the first's line.
        auto dup = load("dup.txt", "JobID|Submit|State\n5|2024-01-01T00:00:00|COMPLETED\n5|2024-01-01T00:00:00|COMPLETED\n");
        QVERIFY(dup.ok());
        QCOMPARE(dup->trace.jobs.size(), std::size_t(1));
        QVERIFY(dup->diagnostics.kept().front().message.find("line 2") != std::string::npos);
        // A bad hostlist or TRES rejects the row with its field named.
        auto hl = load("hl.txt", "JobID|Submit|State|NodeList|AllocTRES\n1|2024-01-01T00:00:00|COMPLETED|cn[1-|cpu=1\n"
                                 "2|2024-01-01T00:00:00|COMPLETED|cn1|cpu=lots\n3|2024-01-01T00:00:00|COMPLETED|cn1|cpu=1\n");
        QVERIFY(hl.ok());
        QCOMPARE(hl->trace.jobs.size(), std::size_t(1));
        QCOMPARE(hl->diagnostics.countOf("bad-nodelist"), int64_t(1));
        QCOMPARE(hl->diagnostics.countOf("bad-tres"), int64_t(1));
        QCOMPARE(hl->diagnostics.kept()[1].field, std::string("AllocTRES"));
    }

    void lsbAcct()
    {
        // Job 7: 2 slots on hA, submit 1000000, start +10, end (event time) +100, DONE (64).
        // Job 8: asked for hB; slots on hA once and hB twice; start +60, end +200, EXIT (32).
        // Each record's tail as LSF 10.1 writes it (tests/.../lsb.acct.16), up to maxRSwap and a few
        // more: 19 resource usage figures, mailUser, projectName, exitStatus, maxNumProcessors, ...
        const std::string tail = " 0.000991 0.009703 3756 0 -1 0 0 407 4 0 936 8 -1 0 0 0 19 2 -1 \"\" \"default\" 32512 1 \"\" \"\" 0 0 0 \"\" \"\" -1";
        const std::string text
            = std::string("\"JOB_FINISH\" \"10.108\" 1000100 7 1501 0 2 1000000 0 0 1000010 \"u1\" \"normal\" \"\" \"\" \"\" \"h0\" \"/\" \"\" \"\" \"\" \"f\" 0 2 \"hA\" \"hA\" 64 100.0 \"job \"\"x\"\"\" \"cmd\"")
            + tail + "\n"
              "\"JOB_FINISH\" \"10.108\" 1000200 8 1502 0 3 1000050 0 0 1000060 \"u2\" \"normal\" \"\" \"\" \"\" \"h0\" \"/\" \"\" \"\" \"\" \"f\" 1 \"hB\" 3 \"hA\" \"hB\" \"hB\" 32 100.0 \"\" \"sleep 1\""
            + tail + "\n"
              "\"JOB_RESIZE\" \"10.108\" 1000300 9"
              "\n"
              "\"JOB_FINISH\" \"10.108\" 1000300 10 1501 0 1 \"cut"
              "\n"
              // Cut after a complete field: whole to its command, half its resource usage.
              "\"JOB_FINISH\" \"10.108\" 1000400 11 1501 0 1 1000350 0 0 1000360 \"u1\" \"normal\" \"\" \"\" \"\" \"h0\" \"/\" \"\" \"\" \"\" \"f\" 0 1 \"hA\" 64 100.0 \"\" \"cmd\" 0.01 0.02 3756 0 -1 0 0";
        auto r = load("lsb.acct", text);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        const Trace& t = r->trace;
        QCOMPARE(t.sourceFormat, std::string("lsf"));
        QCOMPARE(t.jobs.size(), std::size_t(2));
        QCOMPARE(r->diagnostics.countOf("truncated-record"), int64_t(2)); // the cut string, the half record
        QCOMPARE(r->diagnostics.notes().at("lsf-skipped-JOB_RESIZE"), int64_t(1));
        QCOMPARE(r->diagnostics.kept().back().line, int64_t(5));
        QVERIFY2(r->diagnostics.kept().back().message.find("ends after 36 fields, 21 short of its resource usage and maxRSwap (cut mid-way?)")
                != std::string::npos,
            r->diagnostics.kept().back().message.c_str());
        QCOMPARE(t.metadata.at("epoch.unixS"), std::string("1000000"));
        QCOMPARE(t.jobs[0].runTimeS, 90.0);
        QCOMPARE(t.jobs[0].status, int16_t(1));
        QCOMPARE(t.jobName(t.jobs[0]), std::string("job \"x\""));
        QCOMPARE(t.jobs[0].taskCount, uint32_t(1));
        QCOMPARE(taskOf(t, 0).request.cpuMilli, int64_t(2000));
        QCOMPARE(taskOf(t, 0).logged.startTimeS, 10.0);
        QCOMPARE(t.jobs[1].submitTimeS, 50.0);
        QCOMPARE(t.jobs[1].runTimeS, 140.0);
        QCOMPARE(t.jobs[1].status, int16_t(0));
        QCOMPARE(t.jobName(t.jobs[1]), std::string("sleep 1")); // no job name: the command
        QCOMPARE(t.jobs[1].taskCount, uint32_t(2));
        QCOMPARE(taskOf(t, 1, 0).request.cpuMilli, int64_t(1000));
        QCOMPARE(taskOf(t, 1, 1).request.cpuMilli, int64_t(2000));
        // hA holds job 7 [10, 100) and job 8's slot [60, 200): 3 slots at once; hB 2.
        QCOMPARE(t.nodes.size(), std::size_t(2));
        QCOMPARE(t.nodes[0].name, std::string("hA"));
        QCOMPARE(t.nodes[0].cpuMilli, int64_t(3000));
        QCOMPARE(t.nodes[1].cpuMilli, int64_t(2000));
        QCOMPARE(t.metadata.at("lsf.status"), std::string("DONE 1, EXIT 1"));
    }

    // LSF_HPC_EXTENSIONS="SHORT_EVENTFILE" writes a big job's hosts compactly (IBM's lsb.acct
    // reference: `3 "4*hostA" "hostB" "hostC"`): a 128-slot job on two 64-slot hosts, and the
    // reference's own 6-slot example.
    void lsbAcctCompactHostLists()
    {
        const std::string tail = " 0.5 0.1 3756 0 -1 0 0 407 4 0 936 8 -1 0 0 0 19 2 -1 \"\" \"default\" 0 128 \"\" \"\" 0 0 0 \"\" \"\" -1";
        const std::string head = "\"JOB_FINISH\" \"10.108\" 1003600 ";
        const std::string text = head + "21 1501 0 128 1000000 0 0 1000100 \"u\" \"hpc\" \"\" \"\" \"\" \"login1\" \"/\" \"\" \"\" \"\" \"f\" 0 "
                "2 \"64*host1201-ib\" \"64*host1202-ib\" 64 100.0 \"mpi\" \"mpirun a.out\"" + tail + "\n"
            + head + "22 1501 0 6 1000000 0 0 1000200 \"u\" \"hpc\" \"\" \"\" \"\" \"login1\" \"/\" \"\" \"\" \"\" \"f\" 0 "
                "3 \"4*hostA\" \"hostB\" \"hostC\" 64 100.0 \"six\" \"a.out\"" + tail + "\n";
        auto r = load("lsb.acct", text);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        const Trace& t = r->trace;
        QCOMPARE(t.jobs.size(), std::size_t(2));
        QCOMPARE(t.jobs[0].taskCount, uint32_t(2));
        QCOMPARE(taskOf(t, 0, 0).request.cpuMilli, int64_t(64000));
        QCOMPARE(taskOf(t, 0, 1).request.cpuMilli, int64_t(64000));
        QCOMPARE(t.jobs[1].taskCount, uint32_t(3));
        QCOMPARE(taskOf(t, 1, 0).request.cpuMilli, int64_t(4000));
        QCOMPARE(taskOf(t, 1, 1).request.cpuMilli, int64_t(1000));
        QCOMPARE(t.nodes.size(), std::size_t(5));
        QCOMPARE(t.nodes[0].name, std::string("host1201-ib"));
        QCOMPARE(t.nodes[0].cpuMilli, int64_t(64000)); // inferred from the slots held, not 1 core
        QCOMPARE(t.nodes[2].name, std::string("hostA"));
        QCOMPARE(t.nodes[2].cpuMilli, int64_t(4000));
        QCOMPARE(t.nodes[4].cpuMilli, int64_t(1000));
        // Names are names: digits without a '*', or '*' without a count, stay as written.
        QCOMPARE(hostSlots("1201host"), (std::pair<std::string_view, int64_t> { "1201host", 1 }));
        QCOMPARE(hostSlots("*hostA"), (std::pair<std::string_view, int64_t> { "*hostA", 1 }));
        QCOMPARE(hostSlots("0*hostA"), (std::pair<std::string_view, int64_t> { "0*hostA", 1 }));
        QCOMPARE(hostSlots("16*"), (std::pair<std::string_view, int64_t> { "16*", 1 }));
        QCOMPARE(hostSlots("99999999999999999999*h"), (std::pair<std::string_view, int64_t> { "99999999999999999999*h", 1 }));
    }

    void lsbAcctAllRejected()
    {
        auto r = load("lsb.acct.1", "\"JOB_FINISH\" \"10.108\" 1000100 7 1501 0 2 1000000 0 0 1000010 \"u1\" \"normal\""
                                    "\n");
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("every JOB_FINISH record") != std::string::npos, r.error().message.c_str());
        QCOMPARE(r.error().line, int64_t(1));
    }
};

QTEST_GUILESS_MAIN(TestAccountingImporters)
#include "test_accounting_importers.moc"
