// Kubernetes objects and events: quantities, times and event messages by hand; pods' requests and
// QoS as kube-scheduler and the kubelet compute them; List / bare array / nested List files; bad
// input named by file and JSON pointer; a .sltrace round trip keeps the logged decisions.

#include "test_util.h"

#include "trace/k8s_dump_writer.h"
#include "trace/k8s_events.h"
#include "trace/k8s_quantity.h"
#include "trace/native_format.h"
#include "trace/rfc3339.h"
#include "trace/trace_generator.h"
#include "trace/trace_loader.h"
#include "trace/trace_summary.h"

#include <QtTest>

using namespace schedlab;
using namespace schedlab::trace;
using schedlab::test::readFile;
using schedlab::test::writeFile;

namespace {

// A node object; `extra` goes into status.allocatable, `labels` into metadata.labels.
std::string nodeJson(const std::string& name, const std::string& cpu, const std::string& mem, const std::string& extra = "",
    const std::string& labels = "")
{
    return R"({"metadata":{"name":")" + name + R"(","creationTimestamp":"2024-01-01T00:00:00Z","labels":{)" + labels
        + R"(}},"status":{"allocatable":{"cpu":")" + cpu + R"(","memory":")" + mem + R"(","pods":"110")" + extra + "}}}";
}

// A pod object: `spec` is the inside of spec (containers, ...), `status` the inside of status.
std::string podJson(const std::string& name, const std::string& spec, const std::string& status = "",
    const std::string& created = "2024-01-01T00:00:10Z")
{
    return R"({"kind":"Pod","metadata":{"name":")" + name + R"(","namespace":"default","uid":"uid-)" + name
        + R"(","creationTimestamp":")" + created + R"("},"spec":{)" + spec + R"(},"status":{)" + status + "}}";
}

std::string container(const std::string& requests, const std::string& limits = "", const std::string& extra = "")
{
    std::string r = R"({"name":"c")" + extra + R"(,"resources":{)";
    if (!requests.empty())
        r += R"("requests":{)" + requests + "}";
    if (!limits.empty())
        r += std::string(requests.empty() ? "" : ",") + R"("limits":{)" + limits + "}";
    return r + "}}";
}

std::string list(const std::vector<std::string>& items)
{
    std::string s = R"({"apiVersion":"v1","kind":"List","items":[)";
    for (std::size_t i = 0; i < items.size(); ++i)
        s += (i ? "," : "") + items[i];
    return s + "]}";
}

} // namespace

class TestK8s : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    // Loads `files` (name, content) as one trace; fails the test on an error.
    LoadedTrace load(const std::vector<std::pair<std::string, std::string>>& files)
    {
        std::vector<std::string> paths;
        for (const auto& [name, content] : files)
            paths.push_back(writeFile(m_dir, name, content));
        auto r = loadTrace(paths);
        if (!r)
            qFatal("load failed: %s", r.error().toString().c_str());
        return std::move(r).value();
    }
    Error loadError(const std::vector<std::pair<std::string, std::string>>& files)
    {
        std::vector<std::string> paths;
        for (const auto& [name, content] : files)
            paths.push_back(writeFile(m_dir, name, content));
        auto r = loadTrace(paths);
        if (r)
            qFatal("load should have failed");
        return r.error();
    }
    // The one pod's request, on a one-node cluster.
    TaskRequest requestOf(const std::string& spec)
    {
        const LoadedTrace t = load({ { "n.json", list({ nodeJson("n0", "8", "32Gi") }) }, { "p.json", list({ podJson("p", spec) }) } });
        if (t.trace.tasks.size() != 1)
            qFatal("expected one pod");
        return t.trace.tasks[0].request;
    }

private slots:
    void quantities_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qlonglong>("milli"); // -1 = not a quantity
        QTest::addColumn<qlonglong>("mibUp");
        QTest::addColumn<qlonglong>("mibDown");
        QTest::newRow("3920m") << "3920m" << 3920LL << 1LL << 0LL;
        QTest::newRow("4") << "4" << 4000LL << 1LL << 0LL;
        QTest::newRow("1.5") << "1.5" << 1500LL << 1LL << 0LL;
        QTest::newRow("0.1 exactly") << "0.1" << 100LL << 1LL << 0LL;
        QTest::newRow("100n rounds up") << "100n" << 1LL << 1LL << 0LL;
        QTest::newRow("15Gi") << "15Gi" << 15LL * 1024 * 1024 * 1024 * 1000 << 15360LL << 15360LL;
        QTest::newRow("16000Mi") << "16000Mi" << 16000LL * 1024 * 1024 * 1000 << 16000LL << 16000LL;
        QTest::newRow("1e9 bytes") << "1e9" << 1000000000000LL << 954LL << 953LL;
        QTest::newRow("128974848") << "128974848" << 128974848000LL << 123LL << 123LL;
        QTest::newRow("129M") << "129M" << 129000000000LL << 124LL << 123LL;
        QTest::newRow("3750580Ki") << "3750580Ki" << 3840593920000LL << 3663LL << 3662LL;
        QTest::newRow(".5") << ".5" << 500LL << 1LL << 0LL;
        QTest::newRow("5.") << "5." << 5000LL << 1LL << 0LL;
        QTest::newRow("+2k") << "+2k" << 2000000LL << 1LL << 0LL;
        QTest::newRow("1E is exa") << "1E" << -2LL << 953674316407LL << 953674316406LL;
        QTest::newRow("1e-3") << "1e-3" << 1LL << 1LL << 0LL;
        QTest::newRow("12q") << "12q" << -1LL << 0LL << 0LL;
        QTest::newRow("empty") << "" << -1LL << 0LL << 0LL;
        QTest::newRow("Ki alone") << "Ki" << -1LL << 0LL << 0LL;
        QTest::newRow("1e alone") << "1e" << -1LL << 0LL << 0LL;
        QTest::newRow("1.2.3") << "1.2.3" << -1LL << 0LL << 0LL;
        QTest::newRow("1Xi") << "1Xi" << -1LL << 0LL << 0LL;
        QTest::newRow("huge exponent") << "1e99" << -1LL << 0LL << 0LL;
    }
    void quantities()
    {
        QFETCH(QString, text);
        QFETCH(qlonglong, milli);
        QFETCH(qlonglong, mibUp);
        QFETCH(qlonglong, mibDown);
        const auto q = parseQuantity(text.toStdString());
        if (milli == -1) {
            QVERIFY(!q);
            return;
        }
        QVERIFY(q);
        const auto m = milliCores(*q);
        if (milli == -2)
            QVERIFY(!m); // exa-cores in milli do not fit int64
        else
            QCOMPARE(qlonglong(m.value_or(-99)), milli);
        QCOMPARE(qlonglong(mebibytes(*q, Round::Up).value_or(-99)), mibUp);
        QCOMPARE(qlonglong(mebibytes(*q, Round::Down).value_or(-99)), mibDown);
    }

    void rfc3339()
    {
        QCOMPARE(parseRfc3339("2017-12-13T16:59:38Z").value_or(-1), 1513184378.0);
        QCOMPARE(parseRfc3339("2017-12-13T17:59:38+01:00").value_or(-1), 1513184378.0);
        QCOMPARE(parseRfc3339("2017-12-13t16:59:38.250000z").value_or(-1), 1513184378.25);
        QCOMPARE(parseRfc3339("1970-01-01T00:00:00Z").value_or(-1), 0.0);
        QVERIFY(!parseRfc3339("2017-12-13T16:59:38")); // no zone
        QVERIFY(!parseRfc3339("2017-13-13T16:59:38Z"));
        QVERIFY(!parseRfc3339("2017-12-13T16:59:38Zjunk"));
        QVERIFY(!parseRfc3339("yesterday"));
    }

    void eventMessages()
    {
        QCOMPARE(scheduledNode("Successfully assigned default/web-1 to node-3").value_or("?"), std::string("node-3"));
        QCOMPARE(scheduledNode("Successfully assigned kube-dns-545bc4bfd4-t4lzx to ip-10-0-26-239.us-west-2.compute.internal")
                     .value_or("?"),
            std::string("ip-10-0-26-239.us-west-2.compute.internal"));
        QVERIFY(!scheduledNode("Binding rejected"));

        FailedScheduling f = parseFailedScheduling("0/3 nodes are available: 3 Insufficient cpu.");
        QCOMPARE(f.totalNodes, 3);
        QCOMPARE(int(f.reasons.size()), 1);
        QCOMPARE(f.reasons[0].reason, std::string("Insufficient cpu"));
        QCOMPARE(f.reasons[0].nodes, 3);
        f = parseFailedScheduling("0/5 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, "
                                  "4 Insufficient memory. preemption: 0/5 nodes are available: 1 Preemption is not helpful for "
                                  "scheduling, 4 No preemption victims found for incoming pod..");
        QCOMPARE(f.totalNodes, 5);
        QCOMPARE(int(f.reasons.size()), 2);
        QCOMPARE(f.reasons[0].reason, std::string("node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }"));
        QCOMPARE(f.reasons[0].nodes, 1);
        QCOMPARE(f.reasons[1].reason, std::string("Insufficient memory"));
        QCOMPARE(f.reasons[1].nodes, 4);
        f = parseFailedScheduling("0/4 nodes are available: 2 node(s) had taint {a: b, c}, that the pod didn't tolerate, 2 Insufficient cpu.");
        QCOMPARE(int(f.reasons.size()), 2);
        QCOMPARE(f.reasons[0].reason, std::string("node(s) had taint {a: b, c}, that the pod didn't tolerate"));
        f = parseFailedScheduling("No nodes are available that match all of the predicates: Insufficient cpu (1), NodeNotReady (2).");
        QCOMPARE(f.totalNodes, -1);
        QCOMPARE(int(f.reasons.size()), 2);
        QCOMPARE(f.reasons[0].reason, std::string("Insufficient cpu"));
        QCOMPARE(f.reasons[0].nodes, 1);
        QCOMPARE(f.reasons[1].reason, std::string("NodeNotReady"));
        QCOMPARE(f.reasons[1].nodes, 2);
        f = parseFailedScheduling("pod has unbound immediate PersistentVolumeClaims.");
        QCOMPARE(int(f.reasons.size()), 1);
        QCOMPARE(f.reasons[0].reason, std::string("pod has unbound immediate PersistentVolumeClaims"));
        QCOMPARE(f.reasons[0].nodes, -1);
    }

    // kube-scheduler's pod request: containers summed, max'ed with each init container (plus the
    // sidecars started before it), sidecars also summed, then the overhead; limits stand in for
    // missing requests.
    void podRequests()
    {
        TaskRequest r = requestOf(R"("containers":[)" + container(R"("cpu":"250m","memory":"64Mi")") + ","
            + container(R"("cpu":"500m","memory":"128Mi")") + "]");
        QCOMPARE(r.cpuMilli, int64_t(750));
        QCOMPARE(r.memMiB, int64_t(192));
        // An init container larger than the sum wins per resource.
        r = requestOf(R"("containers":[)" + container(R"("cpu":"250m","memory":"64Mi")") + R"(],"initContainers":[)"
            + container(R"("cpu":"1","memory":"10Mi")") + "]");
        QCOMPARE(r.cpuMilli, int64_t(1000));
        QCOMPARE(r.memMiB, int64_t(64));
        // A sidecar (restartPolicy Always) adds to the sum and to every later init container.
        r = requestOf(R"("containers":[)" + container(R"("cpu":"100m")") + R"(],"initContainers":[)"
            + container(R"("cpu":"200m")", "", R"(,"restartPolicy":"Always")") + "," + container(R"("cpu":"250m")") + "]");
        QCOMPARE(r.cpuMilli, int64_t(450)); // max(100 + 200, 200 + 250)
        // Overhead adds; a limit without a request is the request.
        r = requestOf(R"("containers":[)" + container("", R"("cpu":"2","memory":"1Gi")") + R"(],"overhead":{"cpu":"250m","memory":"120Mi"})");
        QCOMPARE(r.cpuMilli, int64_t(2250));
        QCOMPARE(r.memMiB, int64_t(1144));
        // GPUs are whole devices.
        r = requestOf(R"("containers":[)" + container(R"("cpu":"4","nvidia.com/gpu":"2")") + "]");
        QCOMPARE(r.numGpu, 2);
        QCOMPARE(r.gpuMilli, 1000);
        // Fractions below a milli-core or a MiB round up.
        r = requestOf(R"("containers":[)" + container(R"("cpu":"0.0001","memory":"1")") + "]");
        QCOMPARE(r.cpuMilli, int64_t(1));
        QCOMPARE(r.memMiB, int64_t(1));
    }

    void qosAsKubernetesDerivesIt()
    {
        const std::string node = list({ nodeJson("n0", "8", "32Gi") });
        const std::string pods = list({
            podJson("guaranteed", R"("containers":[)" + container(R"("cpu":"1","memory":"1Gi")", R"("cpu":"1","memory":"1Gi")") + "]"),
            podJson("limits-only", R"("containers":[)" + container("", R"("cpu":"1","memory":"1Gi")") + "]"),
            podJson("burstable", R"("containers":[)" + container(R"("cpu":"500m")", R"("cpu":"1","memory":"1Gi")") + "]"),
            podJson("no-mem-limit", R"("containers":[)" + container(R"("cpu":"1")", R"("cpu":"1")") + "]"),
            podJson("best-effort", R"("containers":[)" + container("") + "]"),
            podJson("from-status", R"("containers":[)" + container("") + "]", R"("qosClass":"Burstable")"),
        });
        const LoadedTrace t = load({ { "n.json", node }, { "p.json", pods } });
        QCOMPARE(int(t.trace.jobs.size()), 6);
        const char* want[] = { "Guaranteed", "Guaranteed", "Burstable", "Burstable", "BestEffort", "Burstable" };
        for (int i = 0; i < 6; ++i)
            QCOMPARE(t.trace.qosClasses[std::size_t(t.trace.jobs[std::size_t(i)].qos)], std::string(want[i]));
    }

    // Nodes: allocatable rounded down, GPUs and their model from the labels, extended resources kept
    // by name; pods: logged start (PodScheduled), node, end, GPU model from a node selector.
    void nodesPodsAndTimes()
    {
        const std::string nodes = list({ nodeJson("gpu-0", "3920m", "15Gi", R"(,"nvidia.com/gpu":"4","example.com/fpga":"2")",
                                             R"("nvidia.com/gpu.product":"Tesla-V100-SXM2-16GB")"),
            nodeJson("cpu-0", "4", "16000Mi") });
        const std::string pods = list({
            podJson("train", R"("nodeName":"gpu-0","nodeSelector":{"nvidia.com/gpu.product":"Tesla-V100-SXM2-16GB"},"containers":[)"
                    + container(R"("cpu":"2","memory":"4Gi","nvidia.com/gpu":"1")") + "]",
                R"("phase":"Succeeded","conditions":[{"type":"PodScheduled","status":"True","lastTransitionTime":"2024-01-01T00:00:20Z"}],)"
                R"("containerStatuses":[{"name":"c","state":{"terminated":{"finishedAt":"2024-01-01T00:01:20Z"}}}])"),
            podJson("pending", R"("containers":[)" + container(R"("cpu":"64")") + "]", R"("phase":"Pending")", "2024-01-01T00:00:30Z"),
        });
        const LoadedTrace l = load({ { "nodes.json", nodes }, { "pods.json", pods } });
        const Trace& t = l.trace;
        QCOMPARE(int(t.nodes.size()), 2);
        QCOMPARE(t.nodes[0].cpuMilli, int64_t(3920));
        QCOMPARE(t.nodes[0].memMiB, int64_t(15360));
        QCOMPARE(t.nodes[0].numGpu, 4);
        QCOMPARE(t.gpuModels[std::size_t(t.nodes[0].gpuModel)], std::string("Tesla-V100-SXM2-16GB"));
        QCOMPARE(t.nodes[1].memMiB, int64_t(16000));
        QCOMPARE(t.metadata.at("k8s.extended.example.com/fpga"), std::string("2"));
        // Times from the earliest creation (00:00:10).
        QCOMPARE(t.jobs[0].submitTimeS, 0.0);
        QCOMPARE(t.tasks[0].logged.startTimeS, 10.0);
        QCOMPARE(t.tasks[0].logged.endTimeS, 70.0);
        QCOMPARE(t.jobs[0].runTimeS, 60.0);
        QCOMPARE(t.tasks[0].logged.node.value, 0);
        QCOMPARE(t.tasks[0].request.gpuModelMask, 1u << t.nodes[0].gpuModel);
        QCOMPARE(t.jobName(t.jobs[0]), std::string("default/train"));
        QCOMPARE(t.jobs[1].runTimeS, -1.0); // pending at the dump: nothing to replay
        QCOMPARE(t.jobs[1].submitTimeS, 20.0);
        QCOMPARE(l.diagnostics.notes().at("k8s-pending-at-dump"), int64_t(1));
    }

    // Static pods' mirror objects (tests/data/k8s/README.md): created 2024-03-01 08:00:00 (the
    // trace's start), PodScheduled again after the node restarted on 2024-03-04 09:30:05/06. They
    // start at their creation, wait 0 s and run until the dump (10:05:00, the report pod's end):
    // 3 days 2 h 5 min = 266,700 s from the start. The scheduled pods keep their own times.
    void mirrorPodsStartWhenCreated()
    {
        const LoadedTrace l = load({ { "nodes.json", readFile(test::dataPath("k8s/mirror-pods-node-restart/nodes.json")) },
            { "pods.json", readFile(test::dataPath("k8s/mirror-pods-node-restart/pods.json")) } });
        const Trace& t = l.trace;
        QCOMPARE(int(t.jobs.size()), 6);
        const double created[] = { 0, 2, 4 };
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(t.jobs[i].submitTimeS, created[i]);
            QCOMPARE(t.tasks[i].logged.startTimeS, created[i]);
            QCOMPARE(t.jobs[i].runTimeS, 266700 - created[i]);
            QCOMPARE(t.tasks[i].logged.node.value, 0); // cp-1
        }
        // web-...-2xkqp: created 2024-03-04 10:00:00 = 266,400 s, scheduled 3 s later.
        QCOMPARE(t.jobs[3].submitTimeS, 266400.0);
        QCOMPARE(t.tasks[3].logged.startTimeS, 266403.0);
        QCOMPARE(l.diagnostics.notes().at(
                     "k8s-mirror-pods (static pods the kubelet runs, never queued for the scheduler: they arrive and start at the "
                     "earlier of their creation and their start, waiting 0 s)"),
            int64_t(3));
        QCOMPARE(l.diagnostics.total(), int64_t(0));
        // Known by either mark alone: the annotation (every version), or a Node owner (1.20+).
        const std::string owned = R"({"kind":"Pod","metadata":{"name":"etcd-n0","namespace":"kube-system","uid":"u1",)"
                                  R"("creationTimestamp":"2024-01-01T00:00:00Z","ownerReferences":[{"kind":"Node","name":"n0"}]},)"
                                  R"("spec":{"nodeName":"n0","containers":[{"name":"c"}]},"status":{"phase":"Running",)"
                                  R"("conditions":[{"type":"PodScheduled","status":"True","lastTransitionTime":"2024-01-02T00:00:00Z"}]}})";
        const std::string annotated = R"({"kind":"Pod","metadata":{"name":"api-n0","namespace":"kube-system","uid":"u2",)"
                                      R"("creationTimestamp":"2024-01-01T00:00:00Z","annotations":{"kubernetes.io/config.mirror":"ab"}},)"
                                      R"("spec":{"nodeName":"n0","containers":[{"name":"c"}]},"status":{"phase":"Running",)"
                                      R"("conditions":[{"type":"PodScheduled","status":"True","lastTransitionTime":"2024-01-02T00:00:00Z"}]}})";
        const LoadedTrace two = load({ { "n.json", list({ nodeJson("n0", "8", "32Gi") }) }, { "p.json", list({ owned, annotated }) } });
        for (const Task& task : two.trace.tasks)
            QCOMPARE(task.logged.startTimeS, 0.0);
        // A pod owned by a ReplicaSet, and one without a mark, keep their one-day wait.
        const std::string plain = R"({"kind":"Pod","metadata":{"name":"web","namespace":"default","uid":"u3",)"
                                  R"("creationTimestamp":"2024-01-01T00:00:00Z","ownerReferences":[{"kind":"ReplicaSet","name":"web"}]},)"
                                  R"("spec":{"nodeName":"n0","containers":[{"name":"c"}]},"status":{"phase":"Running",)"
                                  R"("conditions":[{"type":"PodScheduled","status":"True","lastTransitionTime":"2024-01-02T00:00:00Z"}]}})";
        const LoadedTrace one = load({ { "n.json", list({ nodeJson("n0", "8", "32Gi") }) }, { "p.json", list({ plain }) } });
        QCOMPARE(one.trace.tasks[0].logged.startTimeS, 86400.0);
    }

    // A kube-scheduler-simulator recorder file: the history of pods and nodes (tests/data/k8s/README.md).
    void simulatorRecorderHistory()
    {
        auto r = loadTrace({ schedlab::test::dataPath("k8s/simulator-record.jsonl") });
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        const Trace& t = r->trace;
        QCOMPARE(int(t.nodes.size()), 2);
        QCOMPARE(t.nodes[0].numGpu, 4);
        QCOMPARE(t.nodes[1].cpuMilli, int64_t(6000)); // the last allocatable recorded
        QCOMPARE(t.metadata.at("epoch.unixS"), std::string("1714557605")); // a's creation, 10:00:05Z
        QCOMPARE(int(t.jobs.size()), 2);
        QCOMPARE(t.jobName(t.jobs[0]), std::string("team-a/a"));
        QCOMPARE(t.jobs[0].submitTimeS, 0.0);
        QCOMPARE(t.tasks[0].logged.node.value, 0);
        QCOMPARE(t.tasks[0].logged.startTimeS, 2.5); // the update that bound it, 10:00:07.5
        QCOMPARE(t.tasks[0].logged.endTimeS, 50.0); // its container's end, 10:00:55
        QCOMPARE(t.jobs[0].runTimeS, 47.5);
        QCOMPARE(t.jobs[0].status, 1);
        QCOMPARE(t.tasks[0].request.numGpu, 1);
        QCOMPARE(t.jobs[1].submitTimeS, 4.0);
        QCOMPARE(t.tasks[1].logged.startTimeS, 4.0); // PodScheduled, 10:00:09
        QCOMPARE(t.tasks[1].logged.node.value, 1);
        QCOMPARE(t.jobs[1].runTimeS, 201.0); // deleted at 10:03:30
        QCOMPARE(r->diagnostics.total(), int64_t(1));
        QCOMPARE(r->diagnostics.kept().front().line, int64_t(7));
        QCOMPARE(r->diagnostics.notes().at("k8s-ignored Namespace"), int64_t(1));
        QCOMPARE(r->diagnostics.notes().at("recorder nodes deleted (kept for the replay)"), int64_t(1));

        // Older recorders wrote one JSON array of the records: the same history.
        std::string lines = schedlab::test::readFile(schedlab::test::dataPath("k8s/simulator-record.jsonl"));
        std::string array = "[";
        for (std::size_t start = 0; start < lines.size();) {
            std::size_t end = lines.find('\n', start);
            if (end == std::string::npos)
                end = lines.size();
            array += (array.size() > 1 ? ",\n" : "") + lines.substr(start, end - start);
            start = end + 1;
        }
        array += "]";
        auto a = loadTrace({ writeFile(m_dir, "record-array.json", array) });
        QVERIFY2(a.ok(), a.ok() ? "" : a.error().toString().c_str());
        QVERIFY(a->trace.jobs == t.jobs);
        QVERIFY(a->trace.tasks == t.tasks);
        QVERIFY(a->trace.nodes == t.nodes);
    }

    // A snapshot may show a node smaller than when a pod was bound to it (here its GPUs listed
    // under a misspelt resource name): the binding is kept and counted, not refused (fuzz_k8s).
    void boundBeyondAllocatableIsKept()
    {
        const std::string nodes = list({ nodeJson("n0", "2", "4Gi", R"(,"nvidiq.com/gpu":"4")"), nodeJson("n1", "2", "4Gi") });
        const std::string pods = list({ podJson("gpu", R"("nodeName":"n0","containers":[)" + container(R"("cpu":"1","nvidia.com/gpu":"1")") + "]"),
            podJson("big", R"("nodeName":"n1","containers":[)" + container(R"("cpu":"3")") + "]"),
            podJson("fits", R"("nodeName":"n1","containers":[)" + container(R"("cpu":"1")") + "]") });
        const LoadedTrace l = load({ { "nodes.json", nodes }, { "pods.json", pods } });
        QCOMPARE(l.trace.tasks[0].logged.node.value, 0);
        QCOMPARE(l.trace.tasks[0].request.numGpu, 1);
        QCOMPARE(l.trace.nodes[0].numGpu, 0);
        QCOMPARE(l.trace.tasks[1].logged.node.value, 1);
        QCOMPARE(l.diagnostics.notes().at("k8s-bound-beyond-node-allocatable"), int64_t(2));
    }

    // A request no node could ever hold (16 EiB of memory: a unit typo) is kept and named with
    // the pod's JSON path; one that fits the largest node is not.
    void requestBeyondEveryNodeIsWarned()
    {
        const std::string nodes = list({ nodeJson("n0", "2", "4Gi"), nodeJson("n1", "8", "1Gi") });
        const std::string pods = list({ podJson("fits", R"("containers":[)" + container(R"("cpu":"8","memory":"4Gi")") + "]"),
            podJson("huge", R"("containers":[)" + container(R"("cpu":"1","memory":"16Ei")") + "]"),
            podJson("wide", R"("containers":[)" + container(R"("cpu":"9","nvidia.com/gpu":"1")") + "]") });
        const LoadedTrace l = load({ { "nodes.json", nodes }, { "pods.json", pods } });
        QCOMPARE(l.trace.tasks.size(), std::size_t(3));
        QCOMPARE(l.trace.tasks[1].request.memMiB, int64_t(1) << 44); // 2^64 bytes in MiB
        QCOMPARE(l.diagnostics.countOf("beyond-every-node"), int64_t(2));
        std::vector<std::string> said;
        for (const Warning& w : l.diagnostics.kept())
            if (w.category == "beyond-every-node")
                said.push_back(w.toString());
        QCOMPARE(said.size(), std::size_t(2));
        QCOMPARE(said[0], std::string("pods.json: /items/1/spec/containers: pod 'default/huge' requests 17592186044416 MiB memory (the "
                                      "largest node has 4096 MiB): no node can ever hold it (a unit typo?); kept, it will not start"));
        QVERIFY2(said[1].find("'default/wide' requests 9000 millicores cpu (the largest node has 8000 millicores), 1 GPUs (the largest node has 0)")
                != std::string::npos,
            said[1].c_str());
    }

    // Events of both APIs folded into logged decisions; an aggregated FailedScheduling keeps its
    // count and reasons; an event for a pod the dump lacks is a warning.
    void eventsBecomeLoggedDecisions()
    {
        const std::string nodes = list({ nodeJson("n0", "1", "2Gi"), nodeJson("n1", "1", "2Gi") });
        const std::string pods = list({ podJson("a", R"("nodeName":"n1","containers":[)" + container(R"("cpu":"500m")") + "]") });
        const std::string events = R"([
          {"metadata":{"name":"e1"},"involvedObject":{"kind":"Pod","namespace":"default","name":"a","uid":"uid-a"},
           "reason":"FailedScheduling","message":"0/2 nodes are available: 2 Insufficient cpu.","source":{"component":"default-scheduler"},
           "firstTimestamp":"2024-01-01T00:00:11Z","lastTimestamp":"2024-01-01T00:00:40Z","count":4,"type":"Warning"},
          {"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e2","creationTimestamp":"2024-01-01T00:00:45Z"},
           "regarding":{"kind":"Pod","namespace":"default","name":"a","uid":"uid-a"},"reason":"Scheduled",
           "note":"Successfully assigned default/a to n1","reportingController":"default-scheduler",
           "eventTime":"2024-01-01T00:00:45.500000Z","type":"Normal"},
          {"metadata":{"name":"e3"},"involvedObject":{"kind":"Pod","namespace":"default","name":"gone"},
           "reason":"Scheduled","message":"Successfully assigned default/gone to n0","firstTimestamp":"2024-01-01T00:00:12Z"},
          {"metadata":{"name":"e4"},"involvedObject":{"kind":"Node","name":"n0"},"reason":"NodeReady","message":"ready",
           "firstTimestamp":"2024-01-01T00:00:01Z"}
        ])";
        const LoadedTrace l = load({ { "nodes.json", nodes }, { "pods.json", pods }, { "events.json", events } });
        const LoggedDecisions& d = l.trace.logged;
        QCOMPARE(int(d.decisions.size()), 2);
        const LoggedDecision& failed = d.decisions[0];
        QCOMPARE(int(failed.outcome), int(LoggedOutcome::Unschedulable));
        QCOMPARE(failed.count, 4);
        QCOMPARE(failed.timeS, 1.0);
        QCOMPARE(failed.lastTimeS, 30.0);
        QCOMPARE(failed.evaluatedNodes, 2);
        QCOMPARE(failed.feasibleNodes, 0);
        QCOMPARE(int(failed.reasonCount), 1);
        QCOMPARE(d.names[std::size_t(d.reasons[failed.firstReason].name)], std::string("Insufficient cpu"));
        QCOMPARE(d.reasons[failed.firstReason].nodes, 2);
        const LoggedDecision& placed = d.decisions[1];
        QCOMPARE(int(placed.outcome), int(LoggedOutcome::Placed));
        QCOMPARE(placed.node, 1);
        QCOMPARE(placed.timeS, 35.5);
        QCOMPARE(d.names[std::size_t(placed.source)], std::string("default-scheduler"));
        QCOMPARE(l.diagnostics.countOf("event-unknown-pod"), int64_t(1));
        QCOMPARE(l.diagnostics.notes().at("k8s-other-events"), int64_t(1));
        const TraceSummary s = summarize(l);
        QCOMPARE(s.loggedUnschedulableAttempts, int64_t(4));
        QCOMPARE(s.loggedPlaced, int64_t(1));
        QCOMPARE(int(s.loggedReasons.size()), 1);
        // And through the schedlab format unchanged.
        const std::string out = m_dir.filePath("k8s.sltrace").toStdString();
        QVERIFY(writeNativeTrace(l.trace, out).ok());
        auto back = loadTrace({ out });
        QVERIFY(back.ok());
        QVERIFY(back->trace.logged == l.trace.logged);
        QVERIFY(back->trace == l.trace);
    }

    // Shapes of files: a bare array, a List inside a List, a single object, unknown kinds counted.
    void fileShapes()
    {
        const std::string nested = R"({"kind":"List","items":[{"kind":"List","items":[)" + nodeJson("n0", "2", "1Gi")
            + R"(]},{"kind":"ConfigMap","metadata":{"name":"x"}},{"kind":"Service","metadata":{"name":"y"}}]})";
        const std::string bare = "[" + podJson("p0", R"("containers":[)" + container(R"("cpu":"1")") + "]") + "]";
        const std::string single = podJson("p1", R"("containers":[)" + container(R"("cpu":"2")") + "]");
        const LoadedTrace l = load({ { "nested.json", nested }, { "bare.json", bare }, { "single.json", single } });
        QCOMPARE(int(l.trace.nodes.size()), 1);
        QCOMPARE(int(l.trace.jobs.size()), 2);
        QCOMPARE(l.diagnostics.notes().at("k8s-ignored ConfigMap"), int64_t(1));
        QCOMPARE(l.diagnostics.notes().at("k8s-ignored Service"), int64_t(1));
    }

    // Bad input: the file and the JSON pointer of the field.
    void badInput()
    {
        const std::string node = list({ nodeJson("n0", "2", "1Gi") });
        // A bad quantity: that pod is skipped with a warning naming the pointer.
        LoadedTrace l = load({ { "n.json", node },
            { "pods.json",
                list({ podJson("ok", R"("containers":[)" + container(R"("cpu":"1")") + "]"),
                    podJson("bad", R"("containers":[)" + container(R"("cpu":"12q")") + "]") }) } });
        QCOMPARE(int(l.trace.jobs.size()), 1);
        QCOMPARE(l.diagnostics.countOf("bad-quantity"), int64_t(1));
        QCOMPARE(l.diagnostics.kept()[0].toString(),
            std::string("pods.json: /items/1/spec/containers/0/resources/requests/cpu: '12q' is not a Kubernetes quantity"));
        // Duplicate uids: the first kept.
        l = load({ { "n.json", node }, { "a.json", list({ podJson("p", R"("containers":[])") }) },
            { "b.json", list({ podJson("p", R"("containers":[])") }) } });
        QCOMPARE(int(l.trace.jobs.size()), 1);
        QCOMPARE(l.diagnostics.countOf("duplicate-uid"), int64_t(1));
        QCOMPARE(l.diagnostics.kept()[0].toString(), std::string("b.json: /items/0: pod 'default/p' appears again; the first is kept"));
        // A pod bound to a node nobody lists.
        l = load({ { "n.json", node }, { "p.json", list({ podJson("p", R"("nodeName":"ghost","containers":[])") }) } });
        QCOMPARE(l.diagnostics.countOf("unknown-node"), int64_t(1));
        QVERIFY(!l.trace.tasks[0].logged.node.valid());
        // Truncated JSON, an empty file, JSON that is not Kubernetes, events without objects.
        Error e = loadError({ { "cut.json", node.substr(0, node.size() / 2) } });
        QVERIFY2(e.toString().find("cut.json:1:") != std::string::npos && e.message.find("not valid JSON (truncated or corrupted)") != std::string::npos
                && e.message.find("it stops at the end: the document is cut short") != std::string::npos,
            e.toString().c_str());
        // Where the parser stopped: a NUL, a byte that is not UTF-8 (line, column, byte).
        const std::string head = "{\"kind\": \"NodeList\",\n\"items\": [\n"
                                 "{\"kind\": \"Node\", \"metadata\": {\"name\": \"a\"}, \"status\": {\"allocatable\": {\"cpu\": \"4\"}}},\n";
        e = loadError({ { "nul.json", head + "{\"kind\": \"Node\", \"metadata\": {\"name\": \"b" + std::string(1, '\0') + "\"}}]}\n" } });
        QVERIFY2(e.line == 4 && e.column == 41 && e.message.find("a NUL byte") != std::string::npos, e.toString().c_str());
        e = loadError({ { "latin1.json", head + "{\"kind\": \"Node\", \"metadata\": {\"name\": \"caf\xe9\"}}]}\n" } });
        QVERIFY2(e.line == 4 && e.column == 43 && e.message.find("not UTF-8 (0xe9)") != std::string::npos, e.toString().c_str());
        e = loadError({ { "events.json", R"({"kind":"EventList","items":[{"metadata":{"name":"e"},"involvedObject":{"kind":"Pod","name":"x"},"reason":"Scheduled","message":"Successfully assigned x to n","firstTimestamp":"2024-01-01T00:00:00Z"}]})" } });
        QVERIFY2(e.toString().find("events but no node or pod objects in events.json") != std::string::npos, e.toString().c_str());
        e = loadError({ { "n.json", node }, { "other.json", R"({"metadata":{"name":"x"},"spec":{"containers":[]}})" }, { "x.json", R"({"hello":"world","metadata":{}})" } });
        QVERIFY2(e.toString().find("x.json") != std::string::npos, e.toString().c_str());
    }

    // A trace written as a kubectl dump imports back: nodes, requests (GPU shares become whole
    // GPUs), logged nodes and times, unschedulable decisions with their reasons.
    void kubectlDumpRoundTrip()
    {
        GeneratorOptions g;
        g.nodes = 6;
        g.jobs = 60;
        g.seed = 9;
        auto gen = generateTrace(g);
        QVERIFY(gen.ok());
        Trace t = gen.value();
        double first = 1e300;
        for (const Job& j : t.jobs)
            first = std::min(first, j.submitTimeS);
        for (const Job& j : t.jobs)
            for (uint32_t k = 0; k < j.taskCount; ++k) {
                Task& task = t.tasks[j.firstTask + k];
                if ((j.firstTask + k) % 3 == 2)
                    continue; // pending
                task.logged.node = NodeId { int32_t((j.firstTask + k) % 6) };
                task.logged.startTimeS = j.submitTimeS + 5;
                task.logged.endTimeS = (j.firstTask + k) % 2 ? task.logged.startTimeS + j.runTimeS : -1;
            }
        LoggedDecision d;
        d.task = 2;
        d.outcome = LoggedOutcome::Unschedulable;
        d.timeS = t.jobs[0].submitTimeS + 1;
        d.lastTimeS = d.timeS + 30;
        d.count = 3;
        d.evaluatedNodes = 6;
        d.reasonCount = 1;
        t.logged.reasons.push_back(LoggedReason { t.logged.internName("Insufficient nvidia.com/gpu"), 6 });
        t.logged.decisions.push_back(d);
        const std::string dir = m_dir.filePath("dump").toStdString();
        QVERIFY(writeKubectlDump(t, dir).ok());
        auto back = loadTrace({ dir });
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
        const Trace& b = back->trace;
        QCOMPARE(back->diagnostics.total(), int64_t(0));
        QCOMPARE(b.nodes.size(), t.nodes.size());
        for (std::size_t i = 0; i < t.nodes.size(); ++i) {
            QCOMPARE(b.nodes[i].name, t.nodes[i].name);
            QCOMPARE(b.nodes[i].cpuMilli, t.nodes[i].cpuMilli);
            QCOMPARE(b.nodes[i].memMiB, t.nodes[i].memMiB);
            QCOMPARE(b.nodes[i].numGpu, t.nodes[i].numGpu);
            if (t.nodes[i].numGpu > 0)
                QCOMPARE(b.gpuModels[std::size_t(b.nodes[i].gpuModel)], t.gpuModels[std::size_t(t.nodes[i].gpuModel)]);
        }
        QCOMPARE(b.tasks.size(), t.tasks.size());
        // Pods in task order; times relative to the earliest creation (every generated submit).
        for (std::size_t i = 0; i < t.tasks.size(); ++i) {
            const TaskRequest &r = t.tasks[i].request, &rb = b.tasks[i].request;
            QCOMPARE(rb.cpuMilli, r.cpuMilli);
            QCOMPARE(rb.memMiB, r.memMiB);
            QCOMPARE(rb.numGpu, r.numGpu);
            QCOMPARE(rb.gpuMilli, r.needsGpu() ? 1000 : 0);
            QCOMPARE(b.tasks[i].logged.node, t.tasks[i].logged.node);
            if (t.tasks[i].logged.startTimeS >= 0) {
                QCOMPARE(b.tasks[i].logged.startTimeS, std::floor(t.tasks[i].logged.startTimeS) - std::floor(first));
                QCOMPARE(b.tasks[i].logged.endTimeS >= 0, t.tasks[i].logged.endTimeS >= 0);
            }
        }
        const TraceSummary s = summarize(back.value());
        QCOMPARE(s.loggedUnschedulable, int64_t(1));
        QCOMPARE(s.loggedUnschedulableAttempts, int64_t(3));
        QCOMPARE(s.loggedReasons[0].reason, std::string("Insufficient nvidia.com/gpu"));
        QCOMPARE(s.loggedPlaced, int64_t(t.tasks.size() - t.tasks.size() / 3));
    }

    // One line of 200 MB: no line-length limit for JSON, and it imports whole.
    void hugeSingleLineJson()
    {
        std::string pods = R"({"kind":"List","items":[)";
        const std::string pad(2000, 'x');
        int n = 0;
        while (pods.size() < std::size_t(200) << 20) {
            pods += (n ? "," : "") + podJson("p" + std::to_string(n),
                         R"("containers":[)" + container(R"("cpu":"100m")", "", R"(,"image":")" + pad + R"(")") + "]");
            ++n;
        }
        pods += "]}";
        const LoadedTrace l = load({ { "n.json", list({ nodeJson("n0", "64", "256Gi") }) }, { "big.json", pods } });
        QCOMPARE(int(l.trace.jobs.size()), n);
        QVERIFY(l.files[1].uncompressedBytes >= int64_t(200) << 20);
    }
};

QTEST_GUILESS_MAIN(TestK8s)
#include "test_k8s.moc"
