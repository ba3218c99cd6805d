// Importers on the real public traces in ../shared/traces (label `real`; skipped when absent).
// Expected counts come from the SOURCES.md files and from independent counts with awk/zcat,
// written next to each check.

#include "test_util.h"

#include "trace/trace_loader.h"

#include <QtTest>

#include <set>
#include <zlib.h>

using namespace schedlab;
using namespace schedlab::trace;
using schedlab::test::realTrace;

class TestRealTraces : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { SCHEDLAB_REQUIRE_REAL_TRACES(); }

    void openbAllNodes()
    {
        auto r = loadTrace({ realTrace("alibaba-gpu-v2023/openb_node_list_all_node.csv") });
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        QCOMPARE(r->trace.nodes.size(), std::size_t(1523));
        QCOMPARE(r->trace.totalGpus(), int64_t(6212));
        int cpuOnly = 0;
        for (const Node& n : r->trace.nodes)
            cpuOnly += n.numGpu == 0;
        QCOMPARE(cpuOnly, 310); // SOURCES.md: 310 CPU-only nodes
        QCOMPARE(r->diagnostics.total(), int64_t(0));
    }

    void openbGpuNodes()
    {
        auto r = loadTrace({ realTrace("alibaba-gpu-v2023/openb_node_list_gpu_node.csv") });
        QVERIFY(r.ok());
        QCOMPARE(r->trace.nodes.size(), std::size_t(1213));
        QCOMPARE(r->trace.totalGpus(), int64_t(6212));
    }

    void openbDefaultPods()
    {
        auto r = loadTrace({ realTrace("alibaba-gpu-v2023/openb_node_list_all_node.csv"),
            realTrace("alibaba-gpu-v2023/openb_pod_list_default.csv") });
        QVERIFY(r.ok());
        const Trace& t = r->trace;
        QCOMPARE(t.jobs.size(), std::size_t(8152));
        // SOURCES.md: 1,088 CPU-only, 6,989 single-GPU (3,078 fractional), 16x2, 15x4, 44x8; 897 pending
        int cpuOnly = 0, single = 0, frac = 0, two = 0, four = 0, eight = 0, pending = 0;
        for (const Job& j : t.jobs) {
            const TaskRequest& q = t.tasks[j.firstTask].request;
            cpuOnly += q.numGpu == 0;
            single += q.numGpu == 1;
            frac += q.isGpuShare();
            two += q.numGpu == 2;
            four += q.numGpu == 4;
            eight += q.numGpu == 8;
            pending += t.tasks[j.firstTask].logged.startTimeS < 0;
        }
        QCOMPARE(cpuOnly, 1088);
        QCOMPARE(single, 6989);
        QCOMPARE(frac, 3078);
        QCOMPARE(two, 16);
        QCOMPARE(four, 15);
        QCOMPARE(eight, 44);
        QCOMPARE(pending, 897);
        QCOMPARE(r->diagnostics.total(), int64_t(0));
    }

    void openbFiveColumnPods()
    {
        auto r = loadTrace({ realTrace("alibaba-gpu-v2023/openb_pod_list_multigpu50.csv") });
        QVERIFY(r.ok());
        QCOMPARE(r->trace.jobs.size(), std::size_t(9061));
        QCOMPARE(r->trace.jobs[0].submitTimeS, -1.0); // no time columns
    }

    void openbGpuSpecModels()
    {
        auto r = loadTrace({ realTrace("alibaba-gpu-v2023/openb_node_list_gpu_node.csv"),
            realTrace("alibaba-gpu-v2023/openb_pod_list_gpuspec33.csv") });
        QVERIFY(r.ok());
        int constrained = 0;
        for (const Task& task : r->trace.tasks)
            constrained += task.request.gpuModelMask != 0;
        QCOMPARE(constrained, 2388); // SOURCES.md: GPU-type limits on 2,388 tasks
    }

    void nasaSwf()
    {
        auto r = loadTrace({ realTrace("pwa-swf/NASA-iPSC-1993-3.1-cln.swf") });
        QVERIFY(r.ok());
        const Trace& t = r->trace;
        // 18,239 job lines (SOURCES.md); 173 have run time 0 (awk '$4<=0') and are skipped with a warning
        QCOMPARE(t.metadata.at("swf.records"), std::string("18239"));
        QCOMPARE(t.metadata.at("swf.MaxProcs"), std::string("128"));
        QCOMPARE(r->diagnostics.countOf("run-time-not-positive"), int64_t(173));
        QCOMPARE(t.jobs.size(), std::size_t(18239 - 173));
        QCOMPARE(t.nodes.size(), std::size_t(1));
        QCOMPARE(t.nodes[0].cpuMilli, int64_t(128000));
        QCOMPARE(t.metadata.at("swf.UnixStartTime"), std::string("749458803"));
        // requested time is -1 everywhere -> every kept job falls back to its run time
        QCOMPARE(r->diagnostics.notes().at("requested-time-fallback"), int64_t(18066));
    }

    void hpc2nSwf()
    {
        auto r = loadTrace({ realTrace("pwa-swf/hpc2n.swf") });
        QVERIFY(r.ok());
        // 3,170 job lines; 25 with run time -1 (SOURCES.md) -> skipped with warnings; last line blank
        QCOMPARE(r->trace.metadata.at("swf.records"), std::string("3170"));
        QCOMPARE(r->diagnostics.countOf("run-time-not-positive"), int64_t(25));
        QCOMPARE(r->diagnostics.total(), int64_t(25));
        QCOMPARE(r->trace.jobs.size(), std::size_t(3145));
        QCOMPARE(r->trace.nodes[0].cpuMilli, int64_t(240000));
        // decimal field 6 parsed, real waits become logged starts
        QCOMPARE(r->trace.tasks[0].logged.startTimeS, 308434.0); // job 1: submit 0 + wait 308434
    }

    void googleTaskEventsPart0()
    {
        const std::string tasks = realTrace("google-2011/task_events/part-00000-of-00500.csv.gz");
        auto r = loadTrace({ realTrace("google-2011/machine_events/part-00000-of-00001.csv.gz"),
            realTrace("google-2011/job_events/part-00000-of-00500.csv.gz"), tasks });
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        // Independent count, straight from the gzip text: distinct (job, task index) with a SUBMIT
        // event, and distinct jobs among them.
        std::set<std::pair<long long, long long>> submitted;
        std::set<long long> jobs;
        gzFile f = gzopen(tasks.c_str(), "rb");
        QVERIFY(f);
        char line[4096];
        long long rows = 0;
        while (gzgets(f, line, sizeof line)) {
            ++rows;
            // fields: time, missing, job, index, machine, type, ...
            const char* p = line;
            const char* fields[6];
            for (int i = 0; i < 6; ++i) {
                fields[i] = p;
                while (*p && *p != ',')
                    ++p;
                if (*p)
                    ++p;
            }
            if (std::atoi(fields[5]) == 0 && fields[5][0] == '0') {
                const long long job = std::atoll(fields[2]), idx = std::atoll(fields[3]);
                submitted.emplace(job, idx);
                jobs.insert(job);
            }
        }
        gzclose(f);
        QCOMPARE(rows, 450146LL); // SOURCES.md
        QCOMPARE(r->trace.tasks.size(), submitted.size());
        QCOMPARE(r->trace.jobs.size(), jobs.size());
        QCOMPARE(r->trace.metadata.at("google.taskEventRows"), std::string("450146"));
        // 12,583 machine ids in machine_events; those that never report a capacity are left out
        QVERIFY(r->trace.nodes.size() > 12000 && r->trace.nodes.size() <= 12583);
        QCOMPARE(int64_t(r->trace.nodes.size()) + r->diagnostics.countOf("missing-capacity"), int64_t(12583));
        int64_t maxCpu = 0;
        for (const Node& n : r->trace.nodes)
            maxCpu = std::max(maxCpu, n.cpuMilli);
        QCOMPARE(maxCpu, int64_t(1000000000)); // the largest machine is 1.0
    }
};

QTEST_GUILESS_MAIN(TestRealTraces)
#include "test_real_traces.moc"
