// kube-scheduler logs: klog lines (prefixes, quoting, cut lines, multi-line values), the real
// excerpt of kubernetes-sigs/kueue#3901, verbosity-10 score lines grouped into candidates with
// per-plugin terms while other pods' lines interleave, the JSON logging format, and the fold into a
// cluster's logged decisions.

#include "test_util.h"

#include "trace/klog.h"
#include "trace/trace_loader.h"
#include "trace/trace_summary.h"

#include <QtTest>

using namespace schedlab;
using namespace schedlab::trace;
using schedlab::test::writeFile;

namespace {

std::string node(const std::string& name)
{
    return "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" + name + "\"},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\"}}}";
}
std::string pod(const std::string& ns, const std::string& name, const std::string& bound = "")
{
    return "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"" + ns + "\",\"creationTimestamp\":\"2024-12-20T04:51:00Z\"},"
        + "\"spec\":{" + (bound.empty() ? "" : "\"nodeName\":\"" + bound + "\",") + "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]},\"status\":{}}";
}
std::string list(const std::vector<std::string>& items)
{
    std::string s = "{\"kind\":\"List\",\"items\":[";
    for (std::size_t i = 0; i < items.size(); ++i)
        s += (i ? "," : "") + items[i];
    return s + "]}";
}

// A verbosity-10 log (tests/data/k8s/verbose-v10.log): pod a scored on two nodes by two plugins
// (plugin by plugin, as 1.22-1.24 log them), b bound in between, a bound; then c scored node by
// node and found no fit; the last line cut.
std::string verboseLog() { return schedlab::test::readFile(schedlab::test::dataPath("k8s/verbose-v10.log")); }

/// The kind cluster of the kueue excerpt (tests/data/k8s/README.md): its nodes and pods as lists.
std::pair<std::string, std::string> kueueCluster()
{
    std::vector<std::string> nodes, pods;
    for (const char* n : { "kind-worker", "kind-worker2", "kind-worker3" })
        nodes.push_back(node(n));
    for (const char* p : { "ranks-pytorch-worker-0", "ranks-pytorch-master-0", "ranks-pytorch-worker-2" })
        pods.push_back(pod("e2e-tas-pytorchjob-qbdbb", p));
    for (const char* p : { "sts-0", "sts-1", "sts-2" })
        pods.push_back(pod("e2e-tas-sts-fpmn5", p));
    return { list(nodes), list(pods) };
}

} // namespace

class TestSchedulerLog : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    LoadedTrace load(const std::vector<std::pair<std::string, std::string>>& files, int year = 2024)
    {
        std::vector<std::string> paths;
        for (const auto& [name, content] : files)
            paths.push_back(writeFile(m_dir, name, content));
        ImportOptions o;
        o.logYear = year; // 0: not given (the files' dates)
        auto r = loadTrace(paths, o);
        if (!r)
            qFatal("load failed: %s", r.error().toString().c_str());
        return std::move(r).value();
    }

private slots:
    void klogLines()
    {
        KlogRecord r;
        std::string scratch;
        QCOMPARE(int(parseKlogLine("I0915 12:19:43.933124       1 scheduler.go:604] \"Successfully bound pod to node\" pod=\"kube-system/aws-6799fc88d8-jqc2r\" node=\"ip-192-168-66-187.eu-west-1.compute.internal\" evaluatedNodes=3 feasibleNodes=2", r, scratch)),
            int(KlogLine::Record));
        QCOMPARE(r.severity, 'I');
        QCOMPARE(r.month, 9);
        QCOMPARE(r.day, 15);
        QCOMPARE(r.secondOfDay, 12 * 3600 + 19 * 60 + 43.933124);
        QCOMPARE(r.prefixUnixS, -1.0);
        QCOMPARE(r.message, std::string_view("Successfully bound pod to node"));
        QCOMPARE(r.value("pod"), std::string_view("kube-system/aws-6799fc88d8-jqc2r"));
        QCOMPARE(r.value("evaluatedNodes"), std::string_view("3"));
        QCOMPARE(r.value("missing"), std::string_view());
        // journald's prefix; escapes in a quoted value.
        QCOMPARE(int(parseKlogLine("May 21 20:52:25 example-server kube-scheduler[91664]: I0521 20:52:25.471604   91664 factory.go:338] \"Unable to schedule pod; no fit; waiting\" pod=\"default/hello-world\" err=\"a \\\"quoted\\\" reason\\tand a tab\"", r, scratch)),
            int(KlogLine::Record));
        QCOMPARE(r.value("err"), std::string_view("a \"quoted\" reason\tand a tab"));
        QCOMPARE(r.month, 5);
        // kubectl logs --timestamps prefix gives the year.
        QCOMPARE(int(parseKlogLine("2025-03-17T10:12:21.773520512Z I0317 10:12:21.773142       1 schedule_one.go:304] \"Successfully bound pod to node\" pod=\"x/y\" node=\"n\"", r, scratch)),
            int(KlogLine::Record));
        QVERIFY(std::abs(r.prefixUnixS - 1742206341.773520512) < 1e-6);
        QCOMPARE(int(parseKlogLine("I0317 10:12:21.773142       1 round_trippers.go:553] GET https://10.96.0.1:443/api 200 OK", r, scratch)),
            int(KlogLine::Unstructured));
        QCOMPARE(int(parseKlogLine("I0317 10:12:21.773142       1 schedule_one.go:304] \"Successfully bound pod to node\" pod=\"x/y", r, scratch)),
            int(KlogLine::Truncated));
        QCOMPARE(int(parseKlogLine("\tcontinued line of a multi-line value", r, scratch)), int(KlogLine::NotKlog));
        QCOMPARE(int(parseKlogLine("I0317 10:12:21.773142       1 x.go:1] \"Dump\" pod=\"x/y\" config=<", r, scratch)), int(KlogLine::Record));
        QCOMPARE(r.value("config"), std::string_view("<multi-line>"));
        // grep -n's prefix, with or without the file name; a name with a colon is no prefix.
        QCOMPARE(int(parseKlogLine("kube-scheduler.log:1736:I0422 10:00:00.000001       1 schedule_one.go:304] \"Successfully bound pod to node\" pod=\"x/y\" node=\"n\"", r, scratch)),
            int(KlogLine::Record));
        QCOMPARE(r.month, 4);
        QCOMPARE(r.prefixUnixS, -1.0);
        QCOMPARE(int(parseKlogLine("node-a:I0422 10:00:00.000001       1 x.go:1] \"m\"", r, scratch)), int(KlogLine::NotKlog));
        // Docker's json-file line: JSON escapes (quotes, \u003c as Docker writes '<', a surrogate
        // pair) undone, the time put in front, the newline dropped.
        std::string text;
        QVERIFY(unwrapDockerJsonLine("{\"log\":\"I0815 10:00:00.000001 1 x.go:1] \\\"a \\u003cb\\u003e \\ud83d\\ude00\\\"\\n\",\"stream\":\"stderr\",\"time\":\"2023-08-15T10:00:00.1Z\"}", text));
        QCOMPARE(text, std::string("2023-08-15T10:00:00.1Z I0815 10:00:00.000001 1 x.go:1] \"a <b> \xF0\x9F\x98\x80\""));
        QVERIFY(!unwrapDockerJsonLine("{\"ts\":1,\"msg\":\"x\"}", text));
        QVERIFY(!unwrapDockerJsonLine("{\"log\":\"cut", text));
        QVERIFY(!unwrapDockerJsonLine("{\"log\":\"bad \\q escape\"}", text));
    }

    // The real excerpt: three pytorch pods bound, sts-0 refused three times, then the three sts pods.
    void kueueIssueExcerpt()
    {
        const auto [nodes, pods] = kueueCluster();
        const std::string log = schedlab::test::readFile(schedlab::test::dataPath("k8s/kueue-3901-kube-scheduler.log"));
        QVERIFY(!log.empty());
        const LoadedTrace l = load({ { "nodes.json", nodes }, { "pods.json", pods }, { "kube-scheduler.log", log } }, 1999);
        QCOMPARE(l.files[2].kind, std::string("kube-scheduler-log"));
        const LoggedDecisions& d = l.trace.logged;
        QCOMPARE(int(d.decisions.size()), 9);
        const TraceSummary s = summarize(l);
        QCOMPARE(s.loggedPlaced, int64_t(6));
        QCOMPARE(s.loggedUnschedulable, int64_t(3));
        QCOMPARE(s.tasksEverUnschedulable, int64_t(1));
        QCOMPARE(int(s.loggedReasons.size()), 3);
        QCOMPARE(s.loggedReasons[0].reason, std::string("Insufficient example.com/gpu"));
        QCOMPARE(s.loggedReasons[0].attempts, int64_t(3));
        QCOMPARE(s.loggedReasons[2].reason, std::string("node(s) didn't match Pod's node affinity/selector"));
        // The runtime's prefix carries the year (the 1999 given is not used): the pods were
        // created at 04:51:00 that day, the first bind 19.75 s later.
        QVERIFY(std::abs(d.decisions[0].timeS - 19.752570988) < 1e-6);
        QCOMPARE(d.decisions[0].evaluatedNodes, 9);
        QCOMPARE(d.decisions[0].feasibleNodes, 1);
        QCOMPARE(l.trace.nodes[std::size_t(d.decisions[2].node)].name, std::string("kind-worker3"));
        const LoggedDecision& refused = d.decisions[3];
        QCOMPARE(int(refused.outcome), int(LoggedOutcome::Unschedulable));
        QCOMPARE(refused.evaluatedNodes, 9);
        QCOMPARE(int(refused.reasonCount), 3);
        QCOMPARE(d.reasons[refused.firstReason].nodes, 1);
        QCOMPARE(d.reasons[refused.firstReason + 2].nodes, 7);
        QCOMPARE(d.names[std::size_t(refused.source)], std::string("kube-scheduler log"));
    }

    // The same real lines as other tools hand them over: behind `grep -n`, inside Docker's
    // json-file lines, with a runtime prefix in another UTC offset. All read the 9 decisions; a
    // prefix gives the year (the summary says so), the bare header takes the year given.
    void kueueExcerptBehindOtherPrefixes()
    {
        const auto [nodes, pods] = kueueCluster();
        const std::string real = schedlab::test::readFile(schedlab::test::dataPath("k8s/kueue-3901-kube-scheduler.log"));
        std::string grepN, docker, offset;
        int n = 0;
        for (std::size_t at = 0; at < real.size();) {
            const std::size_t eol = real.find('\n', at);
            const std::string line = real.substr(at, eol - at);
            at = eol == std::string::npos ? real.size() : eol + 1;
            const std::string time = line.substr(0, line.find(' ')), klog = line.substr(line.find(" stderr F ") + 10);
            grepN += std::to_string(++n) + ":" + klog + "\n";
            std::string escaped;
            for (char c : klog)
                escaped += c == '"' ? std::string("\\\"") : std::string(1, c);
            docker += "{\"log\":\"" + escaped + "\\n\",\"stream\":\"stderr\",\"time\":\"" + time + "\"}\n";
            // 04:51 UTC is 12:51 at +08:00
            offset += time.substr(0, 11) + "12" + time.substr(13, time.size() - 14) + "+08:00 stderr F " + klog + "\n"; // without the Z
        }
        struct Form {
            const char* name;
            std::string text;
            double firstS; // the first bind, from the pods' creation at 04:51:00
            bool prefixed;
            int year; // given (--log-year); 0: not given
        };
        for (const Form& f : { Form { "grep -n", grepN, 19.752136, false, 2024 }, Form { "docker", docker, 19.752570988, true, 0 },
                 Form { "+08:00", offset, 19.752570988, true, 0 } }) {
            const LoadedTrace l
                = load({ { "nodes.json", nodes }, { "pods.json", pods }, { "kube-scheduler.log", f.text } }, f.year);
            QVERIFY2(l.files[2].kind == "kube-scheduler-log", f.name);
            const LoggedDecisions& d = l.trace.logged;
            QVERIFY2(d.decisions.size() == 9, f.name);
            QVERIFY2(summarize(l).loggedPlaced == 6, f.name);
            QVERIFY2(std::abs(d.decisions[0].timeS - f.firstS) < 1e-6, f.name);
            const auto& notes = l.diagnostics.notes();
            const bool fromFileDate = notes.count("kube-scheduler-log year from the file's modification time (--log-year to set it)") > 0;
            const auto fromPrefix = notes.find("kube-scheduler-log times from each line's timestamp prefix (year and UTC offset included)");
            QVERIFY2(!fromFileDate, f.name); // given, or from the prefixes: never the file's date
            QVERIFY2((fromPrefix != notes.end()) == f.prefixed, f.name);
            QVERIFY2(l.trace.metadata.count("import.logYear") == (f.prefixed ? 0u : 1u), f.name);
            QVERIFY2(l.diagnostics.total() == 0, f.name);
        }
    }

    // Score lines become candidates with per-plugin terms and totals, whichever order they come in
    // and whatever other pods' lines come between; a cut last line is a warning with its number.
    void verboseScores()
    {
        const LoadedTrace l = load({ { "nodes.json", list({ node("n1"), node("n2") }) },
            { "pods.json", list({ pod("default", "a"), pod("default", "b"), pod("default", "c") }) }, { "scheduler.log", verboseLog() } });
        const LoggedDecisions& d = l.trace.logged;
        QCOMPARE(int(d.decisions.size()), 3); // b, a, c in log order
        const LoggedDecision& b = d.decisions[0];
        QCOMPARE(l.trace.jobName(l.trace.jobs[b.task]), std::string("default/b"));
        QCOMPARE(int(b.candidateCount), 0); // its scores were not in the log
        const LoggedDecision& a = d.decisions[1];
        QCOMPARE(l.trace.jobName(l.trace.jobs[a.task]), std::string("default/a"));
        QCOMPARE(a.node, 1);
        QCOMPARE(int(a.candidateCount), 2);
        const LoggedCandidate& n1 = d.candidates[a.firstCandidate];
        const LoggedCandidate& n2 = d.candidates[a.firstCandidate + 1];
        QCOMPARE(n1.node, 0);
        QVERIFY(n1.hasScore);
        QCOMPARE(n1.score, 130.0);
        QCOMPARE(n2.score, 140.0);
        QCOMPARE(int(n1.termCount), 2);
        QCOMPARE(d.names[std::size_t(d.terms[n1.firstTerm].name)], std::string("NodeResourcesFit"));
        QCOMPARE(d.terms[n1.firstTerm].value, 40.0);
        QCOMPARE(d.names[std::size_t(d.terms[n1.firstTerm + 1].name)], std::string("NodeResourcesBalancedAllocation"));
        QCOMPARE(d.terms[n1.firstTerm + 1].value, 90.0);
        QCOMPARE(d.terms[n2.firstTerm].value, 60.0);
        const LoggedDecision& c = d.decisions[2];
        QCOMPARE(int(c.outcome), int(LoggedOutcome::Unschedulable));
        QCOMPARE(int(c.candidateCount), 1);
        QCOMPARE(d.candidates[c.firstCandidate].score, 310.0);
        QCOMPARE(d.names[std::size_t(d.reasons[c.firstReason].name)], std::string("Insufficient cpu"));
        // Without a prefix the year given is used: 2024-12-20T04:51:10.2 is 10.2 s after creation.
        QVERIFY(std::abs(a.timeS - 10.2) < 1e-6);
        QCOMPARE(l.diagnostics.countOf("truncated-log-line"), int64_t(0)); // the cut line has no pod
        QCOMPARE(summarize(l).loggedWithCandidates, int64_t(2));
    }

    // kube-scheduler before structured logging (1.14-1.18) wrote its decisions printf-style: the
    // real 1.16.3 lines (tests/data/k8s/README.md) and 1.15's unquoted node and failure lines give
    // the same decisions; a scheduling line in a wording not known is a warning with its line.
    void printfWordingsBefore119()
    {
        const std::string real = schedlab::test::readFile(schedlab::test::dataPath("k8s/kep-request-id-1.16-kube-scheduler.log"));
        const std::string older = "I1028 11:22:00.000001   11463 scheduler.go:594] pod default/web-1 is bound successfully on node n2, "
                                  "3 nodes evaluated, 2 nodes were found feasible\n"
                                  "I1028 11:22:01.000001   11463 factory.go:1472] Unable to schedule default/big: no fit: 0/3 nodes are "
                                  "available: 3 Insufficient cpu.; waiting\n"
                                  "I1028 11:22:02.000001   11463 factory.go:1470] Unable to schedule default/lost: no nodes are registered to "
                                  "the cluster; waiting\n"
                                  "I1028 11:22:03.000001   11463 scheduler.go:700] pod default/web-2 was bound successfully, somehow\n";
        std::vector<std::string> pods { pod("kube-system", "kube-dns-68496566b5-24cwk"), pod("default", "web-1"), pod("default", "big"),
            pod("default", "lost"), pod("default", "web-2") };
        const LoadedTrace l = load({ { "nodes.json", list({ node("127.0.0.1"), node("n2"), node("n3") }) }, { "pods.json", list(pods) },
                                       { "kube-scheduler.log", real + older } },
            2019);
        QCOMPARE(l.files[2].kind, std::string("kube-scheduler-log"));
        const LoggedDecisions& d = l.trace.logged;
        QCOMPARE(int(d.decisions.size()), 4);
        QCOMPARE(int(d.decisions[0].outcome), int(LoggedOutcome::Placed));
        QCOMPARE(l.trace.nodes[std::size_t(d.decisions[0].node)].name, std::string("127.0.0.1"));
        QCOMPARE(d.decisions[0].evaluatedNodes, 1);
        QCOMPARE(d.decisions[0].feasibleNodes, 1);
        QCOMPARE(l.trace.nodes[std::size_t(d.decisions[1].node)].name, std::string("n2"));
        QCOMPARE(d.decisions[1].evaluatedNodes, 3);
        QCOMPARE(d.decisions[1].feasibleNodes, 2);
        QCOMPARE(int(d.decisions[2].outcome), int(LoggedOutcome::Unschedulable));
        QCOMPARE(d.names[std::size_t(d.reasons[d.decisions[2].firstReason].name)], std::string("Insufficient cpu"));
        QCOMPARE(int(d.decisions[3].outcome), int(LoggedOutcome::Unschedulable));
        QCOMPARE(l.diagnostics.notes().at("kube-scheduler-log decisions in the printf wording of 1.14-1.18"), int64_t(4));
        // "Attempting to ..." lines are not decisions; the odd bound line is one in an unknown wording.
        QCOMPARE(l.diagnostics.countOf("unread-scheduling-line"), int64_t(1));
        QCOMPARE(l.diagnostics.kept().back().line, int64_t(7));
        QVERIFY2(l.diagnostics.kept().back().message.find("pod default/web-2 was bound successfully, somehow") != std::string::npos,
            l.diagnostics.kept().back().message.c_str());
    }

    // The same decisions in the JSON logging format (KObj as an object, ts in seconds).
    void jsonFormat()
    {
        // tests/data/k8s/scheduler-json.log: a scored and bound, b refused, the last line cut.
        const std::string log = schedlab::test::readFile(schedlab::test::dataPath("k8s/scheduler-json.log"));
        const LoadedTrace l = load({ { "nodes.json", list({ node("n1") }) }, { "pods.json", list({ pod("default", "a"), pod("default", "b") }) },
            { "scheduler.json", log } });
        QCOMPARE(l.files[2].kind, std::string("kube-scheduler-log-json"));
        const LoggedDecisions& d = l.trace.logged;
        QCOMPARE(int(d.decisions.size()), 2);
        QCOMPARE(d.decisions[0].node, 0);
        QCOMPARE(int(d.decisions[0].candidateCount), 1);
        QCOMPARE(d.candidates[d.decisions[0].firstCandidate].score, 40.0);
        QCOMPARE(d.names[std::size_t(d.reasons[d.decisions[1].firstReason].name)], std::string("Too many pods"));
        QCOMPARE(l.diagnostics.countOf("bad-log-line"), int64_t(1));
        QCOMPARE(l.diagnostics.kept().back().line, int64_t(5));
    }

    void badInput()
    {
        // A log alone is no cluster.
        const std::string path = writeFile(m_dir, "alone.log", verboseLog());
        auto r = loadTrace({ path });
        QVERIFY(!r.ok());
        QVERIFY2(r.error().toString().find("a scheduler's log needs the cluster it scheduled") != std::string::npos,
            r.error().toString().c_str());
        // Pods the objects lack, a bind cut in its pod value.
        const std::string log = verboseLog()
            + "I1220 04:51:12.000000       1 schedule_one.go:286] \"Successfully bound pod to node\" pod=\"default/ghost\" node=\"n1\" evaluatedNodes=2 feasibleNodes=1\n"
              "I1220 04:51:12.100000       1 schedule_one.go:286] \"Successfully bound pod to node\" pod=\"default/cut";
        const LoadedTrace l = load({ { "nodes.json", list({ node("n1"), node("n2") }) },
            { "pods.json", list({ pod("default", "a"), pod("default", "b"), pod("default", "c") }) }, { "scheduler.log", log } });
        QCOMPARE(int(l.trace.logged.decisions.size()), 3);
        QCOMPARE(l.diagnostics.countOf("log-unknown-pod"), int64_t(1));
        QCOMPARE(l.diagnostics.countOf("truncated-log-line"), int64_t(1));
        bool named = false;
        for (const Warning& w : l.diagnostics.kept())
            named = named || (w.category == "truncated-log-line" && w.file == "scheduler.log" && w.line == 16);
        QVERIFY(named);
    }
};

QTEST_GUILESS_MAIN(TestSchedulerLog)
#include "test_kube_scheduler_log.moc"
