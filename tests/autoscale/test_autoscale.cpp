// The autoscaling replay (core/autoscale) against hand-computed values: M/M/c response times, the
// Kubernetes HPA's rules one at a time (tolerance, readiness, rate policies, stabilisation), a
// replay's replicas, start-up delay, backlog, cost and guard rails, and the load readers.

#include "test_util.h"

#include "autoscale/autoscale_replay.h"
#include "autoscale/hpa.h"
#include "autoscale/instance_log.h"
#include "autoscale/load_series.h"
#include "autoscale/queueing.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace schedlab;
using namespace schedlab::autoscale;

namespace {

LoadSeries series(std::vector<float> v)
{
    LoadSeries s;
    s.name = "hand";
    s.requests = std::move(v);
    return s;
}

} // namespace

class TestAutoscale : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string write(const std::string& name, const std::string& text)
    {
        const std::string p = m_dir.filePath(QString::fromStdString(name)).toStdString();
        QFile f(QString::fromStdString(p));
        f.open(QIODevice::WriteOnly);
        f.write(text.data(), qint64(text.size()));
        return p;
    }

private slots:
    void mmcByHand()
    {
        // M/M/1, mu 5, lambda 3: C = rho = 0.6, P(T > t) = e^{-(mu - lambda) t}.
        QCOMPARE(erlangC(1, 0.6), 0.6);
        QVERIFY(std::abs(responseTail(1, 3, 5, 1.0) - std::exp(-2.0)) < 1e-12);
        // M/M/2, mu 1, lambda 1: a = 1, B_1 = 1/2, B_2 = 1/5, C = 2 (1/5) / (2 - (4/5)) = 1/3;
        // theta = 1 = mu, so P(T > t) = (2/3) e^{-t} + (1/3)(1 + t) e^{-t} = e^{-t} (1 + t/3).
        QVERIFY(std::abs(erlangC(2, 1.0) - 1.0 / 3) < 1e-12);
        for (double t : { 0.0, 0.5, 2.0, 5.0 })
            QVERIFY(std::abs(responseTail(2, 1, 1, t) - std::exp(-t) * (1 + t / 3)) < 1e-12);
        // Its p99 solves e^{-t}(1 + t/3) = 0.01: t = 5.6662 (to 1e-4, by hand bisection).
        const double p99 = responseQuantile(2, 1, 1, 0.99);
        QVERIFY2(std::abs(p99 - 5.6662) < 1e-3, qPrintable(QString::number(p99, 'g', 10)));
        QVERIFY(std::abs(std::exp(-p99) * (1 + p99 / 3) - 0.01) < 1e-9);
        // theta != mu: M/M/2, mu 1, lambda 0.5: a = 0.5, B_1 = 1/3, B_2 = 1/13, C = (2/13) / (2 - 0.5 (12/13)) = 1/10;
        // theta = 1.5: H(t) = (e^{-1.5 t} - 1.5 e^{-t}) / (1 - 1.5).
        QVERIFY(std::abs(erlangC(2, 0.5) - 0.1) < 1e-12);
        const double t = 1.3, h = (std::exp(-1.5 * t) - 1.5 * std::exp(-t)) / (1 - 1.5);
        QVERIFY(std::abs(responseTail(2, 0.5, 1, t) - (0.9 * std::exp(-t) + 0.1 * h)) < 1e-12);
        // Unstable or no server: every request is late.
        QCOMPARE(responseTail(2, 2, 1, 100), 1.0);
        QCOMPARE(responseTail(0, 0.1, 1, 100), 1.0);
        QVERIFY(std::isinf(responseQuantile(1, 5, 5, 0.99)));
    }

    void hpaToleranceAndReadiness()
    {
        // 4 ready at 65 % against 60 %: ratio 1.083, within 0.1: no change.
        QCOMPARE(Hpa::recommend(4, 4, 0.65, 0.6, 0.1), 4);
        // 4 ready at 90 %: ratio 1.5 -> ceil(1.5 x 4) = 6.
        QCOMPARE(Hpa::recommend(4, 4, 0.90, 0.6, 0.1), 6);
        // Scale down: 10 ready at 20 % -> ceil(0.333 x 10) = 4.
        QCOMPARE(Hpa::recommend(10, 10, 0.20, 0.6, 0.1), 4);
        // 4 replicas, 2 ready at 90 %: the 2 not ready count as 0 %: 0.9 x 2 / (0.6 x 4) = 0.75,
        // the other direction: no change.
        QCOMPARE(Hpa::recommend(4, 2, 0.90, 0.6, 0.1), 4);
        // 3 replicas, 2 ready at 100 % against 50 %: 1.0 x 2 / (0.5 x 3) = 1.333 -> ceil(4.0) = 4.
        QCOMPARE(Hpa::recommend(3, 2, 1.0, 0.5, 0.1), 4);
        // No ready replica: no metrics, no change.
        QCOMPARE(Hpa::recommend(3, 0, 0.0, 0.5, 0.1), 3);
    }

    void hpaRatePoliciesAndStabilisation()
    {
        Hpa hpa(HpaConfig {}, 1, 100);
        // 2 ready at 100 % against 10 %: wants 20; up limit max(ceil(2 x 2), 2 + 4) = 6.
        QCOMPARE(hpa.sync(0, 2, 2, 1.0, 0.1), 6);
        // 15 s later the event at 0 is not within (0, 15]: the period starts at 6: max(12, 10) = 12.
        QCOMPARE(hpa.sync(15, 6, 6, 1.0, 0.1), 12);
        // 5 s later the +6 at 15 is within the period: start 6 again: max(12, 10) = 12, no change.
        QCOMPARE(hpa.sync(20, 12, 12, 1.0, 0.1), 12);

        // Scale-down stabilisation: the highest recommendation of the last 300 s.
        Hpa down(HpaConfig {}, 1, 100);
        QCOMPARE(down.sync(0, 10, 10, 0.6, 0.6), 10); // recommends 10
        QCOMPARE(down.sync(15, 10, 10, 0.3, 0.6), 10); // recommends 5; the 10 of t = 0 holds
        QCOMPARE(down.sync(299, 10, 10, 0.3, 0.6), 10); // still within (-1, 299]
        QCOMPARE(down.sync(300, 10, 10, 0.3, 0.6), 5); // t = 0 falls out: the highest is 5
        // A Pods down policy of 2 per 60 s and selectPolicy Min with 50 %: the smaller change.
        HpaConfig c;
        c.scaleDown = HpaRules { 0, HpaRules::Min, { { HpaPolicy::Pods, 2, 60 }, { HpaPolicy::Percent, 50, 60 } } };
        Hpa slow(c, 1, 100);
        QCOMPARE(slow.sync(0, 10, 10, 0.06, 0.6), 8); // wants 1: Pods 10 - 2 = 8, Percent 5; Min change -> 8
        QCOMPARE(slow.sync(15, 8, 8, 0.06, 0.6), 8); // period start 10: Pods 8, Percent 5 -> 8, no change
        // Disabled scale-down: never below the current.
        c.scaleDown.select = HpaRules::Disabled;
        Hpa never(c, 1, 100);
        QCOMPARE(never.sync(0, 10, 10, 0.06, 0.6), 10);
        // min / max replicas bound everything.
        Hpa bounded(HpaConfig {}, 3, 5);
        QCOMPARE(bounded.sync(0, 4, 4, 1.0, 0.1), 5);
        QCOMPARE(bounded.sync(600, 5, 5, 0.0, 0.6), 3);
    }

    void replayByHand()
    {
        ServiceConfig s;
        s.serviceTimeS = 1.0; // mu = 1 request/s per replica
        s.targetUtilization = 0.5;
        s.startupDelayS = 30;
        s.initialReplicas = 1;
        s.costPerReplicaHour = 3.6; // 0.001 per replica-second
        // 60 s: 3 requests at t = 0, then none. One ready replica serves 1 per second: backlog 2, 1, 0.
        auto grow = makeReplicaPolicy("static:3", s, nullptr);
        std::vector<float> load(60, 0.0f);
        load[0] = 3;
        auto r = runAutoscale(series(load), s, *grow);
        QVERIFY(r.ok());
        QCOMPARE(r->maxBacklog, 2.0);
        // The decision at t = 15 asks for 2 more; they serve from t = 45: replicas 1 x 15 s + 3 x 45 s.
        QCOMPARE(r->scalingActions, 1);
        QVERIFY(std::abs(r->replicaHours - 150.0 / 3600) < 1e-12);
        QVERIFY(std::abs(r->cost - 0.150) < 1e-12);
        QCOMPARE(r->minutes, 1);
        QCOMPARE(r->series[0].ready, 1.5f); // (45 x 1 + 15 x 3) / 60
        QCOMPARE(r->series[0].replicas, 2.5f);
        QCOMPARE(r->maxReplicas, 3);
        QCOMPARE(r->requests, 3.0);
        // Guard rails: at most 1 replica per decision; pinned to 2 in [30, 60).
        s.maxChangePerDecision = 1;
        s.overrides = { { 30, 60, 2 } };
        auto again = runAutoscale(series(std::vector<float>(90, 0.0f)), s, *grow);
        QVERIFY(again.ok());
        // t=15: 1 -> 2; t=30, 45: pinned at 2; t=60: 3; t=75: 3. Replica-seconds 15 + 45 x 2 + 30 x 3 = 195.
        QVERIFY2(std::abs(again->replicaHours * 3600 - 195) < 1e-9, qPrintable(QString::number(again->replicaHours * 3600)));
        QCOMPARE(again->scalingActions, 2);
        // No replica at all: every request misses the SLO.
        ServiceConfig none = s;
        none.minReplicas = 0;
        none.initialReplicas = 0;
        none.overrides.clear();
        auto zero = makeReplicaPolicy("static:0", none, nullptr);
        auto z = runAutoscale(series(std::vector<float>(60, 1.0f)), none, *zero);
        QVERIFY(z.ok());
        QCOMPARE(z->missedShare, 1.0);
        QCOMPARE(z->sloViolationMinutes, 1);
        QCOMPARE(z->scaleUpLagsS.size(), std::size_t(1)); // short of capacity to the end
    }

    void burstLags()
    {
        // 11 minutes at 1 req/s, then 4 req/s (a burst: 4 >= 1.5 x 1). mu = 1, SLO 10 s, start-up
        // 30 s: 2 replicas serve 1 req/s within the SLO but not 4 (at or above their capacity);
        // 6 do (M/M/6 at 4 req/s: P(T > 10 s) far below 1 %).
        ServiceConfig s;
        s.serviceTimeS = 1.0;
        s.sloP99S = 10;
        s.startupDelayS = 30;
        s.initialReplicas = 2;
        s.maxReplicas = 20;
        QVERIFY(responseTail(6, 4, 1, 10) <= 0.01);
        std::vector<float> load(20 * 60, 1.0f);
        std::fill(load.begin() + 11 * 60, load.end(), 4.0f);
        auto two = makeReplicaPolicy("static:2", s, nullptr);
        auto six = makeReplicaPolicy("static:6", s, nullptr);
        // Static 2: never served: the lag runs to the end, 20 - 11 minutes.
        auto r = runAutoscale(series(load), s, *two);
        QVERIFY(r.ok());
        QCOMPARE(r->burstLagsS, (std::vector<double> { 9 * 60 }));
        // Switched to 6 at 690 s (the sync there): ready at 720 s, 60 s after the burst began.
        AutoscaleOptions fork;
        fork.switchAtS = 690;
        fork.switchTo = six.get();
        r = runAutoscale(series(load), s, *two, fork);
        QVERIFY(r.ok());
        QCOMPARE(r->burstLagsS, (std::vector<double> { 60 }));
        // Switched at 660 s: ready at 690 s, inside the burst minute: 30 s.
        fork.switchAtS = 660;
        r = runAutoscale(series(load), s, *two, fork);
        QVERIFY(r.ok());
        QCOMPARE(r->burstLagsS, (std::vector<double> { 30 }));
        // Already 6 from the start: the same burst, served at once.
        ServiceConfig big = s;
        big.initialReplicas = 6;
        r = runAutoscale(series(load), big, *six);
        QVERIFY(r.ok());
        QCOMPARE(r->burstLagsS, (std::vector<double> { 0 }));
        // A flat load has none.
        r = runAutoscale(series(std::vector<float>(20 * 60, 4.0f)), big, *six);
        QVERIFY(r.ok());
        QVERIFY(r->burstLagsS.empty());
    }

    void forecastSizesForTheSlo()
    {
        // 3 requests every second, mu = 1, target 0.5: 6 replicas keep utilisation at the target;
        // an SLO of 10 s is met there (M/M/6 at rho 0.5), one of 1 s never is (P(service > 1 s) = e^-1):
        // no number of replicas helps, so the target alone sizes it (not maxReplicas).
        ServiceConfig s;
        s.serviceTimeS = 1.0;
        s.targetUtilization = 0.5;
        s.initialReplicas = 6;
        s.maxReplicas = 20;
        s.sloP99S = 10;
        QVERIFY(responseTail(6, 3, 1, 10) <= 0.01);
        auto f = makeReplicaPolicy("forecast", s, nullptr);
        auto r = runAutoscale(series(std::vector<float>(600, 3.0f)), s, *f);
        QVERIFY(r.ok());
        QCOMPARE(r->maxReplicas, 6);
        QCOMPARE(r->scalingActions, 0);
        s.sloP99S = 1;
        auto strict = makeReplicaPolicy("forecast:naive", s, nullptr);
        r = runAutoscale(series(std::vector<float>(600, 3.0f)), s, *strict);
        QVERIFY(r.ok());
        QCOMPARE(r->maxReplicas, 6);
        std::string error;
        QVERIFY(!makeReplicaPolicy("static:x", s, &error) && error.find("static:N") != std::string::npos);
        QVERIFY(!makeReplicaPolicy("vpa", s, &error) && error.find("unknown replica policy 'vpa'") != std::string::npos);
    }

    void incidentsAndForks()
    {
        // 10 min at 1 req/s, 10 min at 30 req/s, 10 min at 1 req/s; mu = 10, one replica throughout:
        // the burst needs 3 replicas at full speed; the backlog builds to 20 x 600 = 12,000 requests
        // and drains at 9 req/s afterwards (past the end).
        std::vector<float> load(1800, 1.0f);
        std::fill(load.begin() + 600, load.begin() + 1200, 30.0f);
        ServiceConfig s;
        s.initialReplicas = 1;
        auto one = makeReplicaPolicy("static:1", s, nullptr);
        auto run = runAutoscale(series(load), s, *one);
        QVERIFY(run.ok());
        QVERIFY(std::abs(run->maxBacklog - 20.0 * 600) < 1e-6);
        const auto incidents = findIncidents(*run);
        QVERIFY(!incidents.empty());
        QCOMPARE(incidents[0].fromS, 600.0); // the burst's first minute
        QCOMPARE(incidents[0].toS, 1800.0); // late to the end: the backlog never drains
        QCOMPARE(incidents[0].sloMinutes, 20);
        QCOMPARE(incidents[0].readyAtStart, 1.0f);
        QVERIFY2(incidents[0].what().rfind("20 min over the SLO in 20 min", 0) == 0, incidents[0].what().c_str());
        // Fork at the incident under static:8 (ready 30 s after the switch): the same until then,
        // fewer late minutes after it, at more replica-hours.
        auto eight = makeReplicaPolicy("static:8", s, nullptr);
        AutoscaleOptions fork;
        fork.switchAtS = 600;
        fork.switchTo = eight.get();
        auto forked = runAutoscale(series(load), s, *one, fork);
        QVERIFY(forked.ok());
        QCOMPARE(forked->policy, std::string("static:1 -> static:8 at 600 s"));
        for (std::size_t m = 0; m < 10; ++m) {
            QCOMPARE(forked->series[m].replicas, run->series[m].replicas);
            QCOMPARE(forked->series[m].missedShare, run->series[m].missedShare);
        }
        const AutoscaleResult before = sliceResult(*run, 600, 1800, s.costPerReplicaHour);
        const AutoscaleResult after = sliceResult(*forked, 600, 1800, s.costPerReplicaHour);
        QCOMPARE(before.minutes, 20);
        QCOMPARE(before.sloViolationMinutes, 20);
        QVERIFY2(after.sloViolationMinutes <= 2, qPrintable(QString::number(after.sloViolationMinutes)));
        // The switch decides at t = 600 itself (a sync): 8 replicas for the window's 1,200 s
        // (starting ones are paid).
        QVERIFY(std::abs(after.replicaHours - 1200.0 * 8 / 3600) < 1e-6);
        QVERIFY(std::abs(before.replicaHours - 1200.0 / 3600) < 1e-6);
    }

    void loadReaders()
    {
        auto counts = readLoadSeries(write("w.txt", "1 0 3 \n2 "));
        QVERIFY(counts.ok());
        QCOMPARE(counts->requests, (std::vector<float> { 1, 0, 3, 2 }));
        QCOMPARE(counts->source, std::string("per-second counts"));
        auto badCount = readLoadSeries(write("b.txt", "1 2\n3 x 4"));
        QVERIFY(!badCount.ok());
        QVERIFY2(badCount.error().toString().find("b.txt:2: count 4: 'x 4' is not a non-negative integer") != std::string::npos,
            badCount.error().toString().c_str());
        // Arrivals binned to the second from the first.
        auto arrivals = readLoadSeries(
            write("a.csv", "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.68,374,44\n2023-11-16 18:15:46.99,1,1\n"
                           "2023-11-16 18:15:49.10,2,2\n"));
        QVERIFY(arrivals.ok());
        QCOMPARE(arrivals->requests, (std::vector<float> { 2, 0, 0, 1 }));
        auto badTime = readLoadSeries(write("t.csv", "TIMESTAMP,x\n2023-11-16 18:15:46,1\n2023-13-16 18:15:46,1\n"));
        QVERIFY(!badTime.ok());
        QVERIFY2(badTime.error().toString().find("t.csv:3: TIMESTAMP: '2023-13-16 18:15:46' is not a date and time") != std::string::npos,
            badTime.error().toString().c_str());
        // 2-s intervals: 4 then 8 requests, stepped: 2 2 4 4; interpolated around the midpoints.
        const std::string nab = write("n.csv", "timestamp,value\n2014-04-10 00:00:00,4\n2014-04-10 00:00:02,8\n");
        auto stepped = readLoadSeries(nab);
        QVERIFY(stepped.ok());
        QCOMPARE(stepped->requests, (std::vector<float> { 2, 2, 4, 4 }));
        auto interpolated = readLoadSeries(nab, Resample::Interpolated);
        QVERIFY(interpolated.ok());
        // Second 0 is 0.25 of an interval before the first midpoint (toward nothing earlier: 2),
        // second 1 a quarter after it toward 4: 2 + 2 x 0.25 = 2.5; second 2 toward the previous: 4 - 2 x 0.25.
        QCOMPARE(interpolated->requests, (std::vector<float> { 2, 2.5f, 3.5f, 4 }));
        // A bad count on the first line is a bad count, not a CSV without its header.
        auto firstBad = readLoadSeries(write("c1.txt", "12 x3 4\n5\n"));
        QVERIFY(!firstBad.ok());
        QVERIFY2(firstBad.error().toString().find("c1.txt:1: count 2: 'x3 4") != std::string::npos, firstBad.error().toString().c_str());
        // Rows out of order and rows repeating a timestamp lose no request: sorted, added, said.
        auto messy = readLoadSeries(write("m.csv",
            "timestamp,value\n2014-04-10 00:00:02,8\n2014-04-10 00:00:00,4\n2014-04-10 00:00:02,6\n2014-04-10 00:00:04,2\n"));
        QVERIFY(messy.ok());
        QCOMPARE(messy->requests, (std::vector<float> { 2, 2, 7, 7, 1, 1 })); // 4, 8 + 6, 2 over 2-s steps
        QCOMPARE(messy->total(), 20.0);
        QCOMPARE(messy->warnings.size(), std::size_t(2));
        QCOMPARE(messy->warnings[0], std::string("1 row(s) earlier than the row above (first at line 3): read in time order"));
        QCOMPARE(messy->warnings[1], std::string("1 row(s) repeat an earlier row's timestamp (first at line 4): their values are added to it"));
        QVERIFY(messy->source.find("their values are added") != std::string::npos);
        QVERIFY(stepped->warnings.empty());
        QVERIFY(!readLoadSeries(write("e.txt", "  \n")).ok());
        QVERIFY(!readLoadSeries(write("h.csv", "when,value\n1,2\n")).ok());
        // A value a float step cannot hold is named, not read as infinity (a fuzzing find).
        auto huge = readLoadSeries(write("x.csv", "timestamp,value\n2014-04-10 20:04:00,9411111111111111111111111111111111111187.0\n"));
        QVERIFY(!huge.ok());
        QVERIFY2(huge.error().toString().find("x.csv:2: value: '9411111111111111111111111111111111111187.0' is above 10^12 requests in a row")
                != std::string::npos,
            huge.error().toString().c_str());
    }

    void hugeLoadSaturatesReplicas()
    {
        // 9.1e11 requests a second (below the reader's 10^12 a row) is 1.5e12 replicas at the
        // default 6 req/s each: more than an int. Every policy starts and stays at maxReplicas
        // (50) instead of overflowing (a fuzzing find: the start took ceil(load / capacity) as int).
        QCOMPARE(ceilReplicas(1.5e12), 1 << 30);
        QCOMPARE(ceilReplicas(2.1), 3);
        QCOMPARE(ceilReplicas(-4), 0);
        QCOMPARE(ceilReplicas(std::nan("")), 0);
        const ServiceConfig s;
        for (const std::string spec : { "hpa", "forecast", "forecast:naive" }) {
            auto policy = makeReplicaPolicy(spec, s, nullptr);
            auto r = runAutoscale(series(std::vector<float>(180, 9.1e11f)), s, *policy);
            QVERIFY2(r.ok(), spec.c_str());
            QCOMPARE(r->series.front().ready, 50.0f);
            QCOMPARE(r->maxReplicas, 50);
        }
    }

    void serviceFiles()
    {
        auto ok = readServiceConfig(test::dataPath("../../samples/autoscale/nasa-http.service.json"));
        QVERIFY2(ok.ok(), ok.ok() ? "" : ok.error().toString().c_str());
        QCOMPARE(ok->serviceTimeS, 1.0);
        QCOMPARE(ok->sloP99S, 5.0);
        QCOMPARE(ok->capacityRps(), 0.6);
        QCOMPARE(ok->hpa.scaleDown.stabilizationS, 300); // not in the file: the Kubernetes default
        auto full = readServiceConfig(write("s.json",
            R"({"hpa": {"behavior": {"scaleDown": {"selectPolicy": "Min", "policies": [{"type": "Pods", "value": 1, "periodSeconds": 60}]}}},
                "overrides": [{"fromS": 10, "toS": 20, "replicas": 3}]})"));
        QVERIFY(full.ok());
        QCOMPARE(full->hpa.scaleDown.select, HpaRules::Min);
        QCOMPARE(int(full->hpa.scaleDown.policies.size()), 1);
        QCOMPARE(full->hpa.scaleDown.policies[0].type, HpaPolicy::Pods);
        QCOMPARE(full->overrides[0].replicas, 3);
        const std::pair<const char*, const char*> bad[] = {
            { R"({"hpa": {"behavior": {"scaleDown": {"selectPolicy": "Fastest"}}}})", "/hpa/behavior/scaleDown/selectPolicy: 'Fastest' is not Max" },
            { R"({"minReplicas": 5, "maxReplicas": 2})", "/minReplicas: above maxReplicas" },
            { R"({"serviceTimeMs": -1})", "/serviceTimeMs: expected a number in" },
            { R"({"overrides": [{"fromS": 20, "toS": 10, "replicas": 3}]})", "/overrides/0/toS: must be after fromS" },
            { R"({"hpa": {"behavior": {"scaleUp": {"policies": [{"type": "Pods", "value": 2.5, "periodSeconds": 15}]}}}})",
                "/hpa/behavior/scaleUp/policies/0/value: expected a whole number" },
            { "[1, 2]", "not a service file (JSON object)" },
        };
        for (const auto& [text, message] : bad) {
            auto r = readServiceConfig(write("bad.json", text));
            QVERIFY(!r.ok());
            QVERIFY2(r.error().toString().find(message) != std::string::npos && r.error().toString().find("bad.json") != std::string::npos,
                r.error().toString().c_str());
        }
    }

    void loggedReplicaCounts()
    {
        // The module README's example: a (before the log, never deleted), b [60, 420),
        // c [180, 420), d [480, end); the log ends at its latest time, 600. Another app's
        // instance and a GPU-node role on the way.
        const std::string header = "instance_sn,role,app_name,cpu_request,creation_time,scheduled_time,deletion_time\n";
        const std::string path = write("dlrm.csv",
            header + "i0,CN,app_a,4,,,\ni1,CN,app_a,4,60,60.5,420.0\ni2,HN,app_a,4,180,181,420\ni3,CN,app_a,4,480,,\n"
                     "i4,CN,app_b,4,0.5,1,600\n");
        QVERIFY(isInstanceLog(path));
        // Opened as a load (the workbench's Load…), it says what it is and how to replay it.
        auto asLoad = readLoadSeries(path);
        QVERIFY(!asLoad.ok());
        QVERIFY2(asLoad.error().toString().find("dlrm.csv:1: an instance log") != std::string::npos, asLoad.error().toString().c_str());
        auto log = readInstanceLog(path);
        QVERIFY2(log.ok(), log.ok() ? "" : log.error().toString().c_str());
        QCOMPARE(log->endS, 600.0);
        QCOMPARE(log->apps, (std::vector<std::string> { "app_a", "app_b" }));
        const ReplicaRecord rec = replicaRecord(*log, 0);
        using Changes = std::vector<std::pair<double, int32_t>>;
        QCOMPARE(rec.changes, (Changes { { 0, 1 }, { 60, 2 }, { 180, 3 }, { 420, 1 }, { 480, 2 }, { 600, 0 } }));
        QCOMPARE(rec.instances, 4);
        QCOMPARE(rec.at(59.9), 1);
        QCOMPARE(rec.at(180), 3);
        // (1 x 60 + 2 x 120 + 3 x 240 + 1 x 60 + 2 x 120) s = 1320 s.
        QCOMPARE(rec.replicaHours(), 1320.0 / 3600);
        QCOMPARE(replicaRecord(*log, 0, log->roleIndex("HN")).changes, (Changes { { 0, 0 }, { 180, 1 }, { 420, 0 } }));
        // Serving after a 60 s start-up (a existed before: from 0), at 6 req/s per replica: the
        // demand changes on minute boundaries (the replay's p99 takes a minute's mean rate).
        ServiceConfig s; // 100 ms, 60 %: 6 req/s per replica
        s.startupDelayS = 60;
        s.sloP99S = 2; // M/M/1 at 60 %: p99 = ln(100) / 4 = 1.15 s
        const LoadSeries demand = demandOf(replicaRecord(*log, 0, -1, 60), s.capacityRps());
        QCOMPARE(demand.requests.size(), std::size_t(600));
        for (const auto& [step, rate] : { std::pair(0, 6.f), std::pair(119, 6.f), std::pair(120, 12.f), std::pair(240, 18.f),
                 std::pair(419, 18.f), std::pair(420, 6.f), std::pair(539, 6.f), std::pair(540, 12.f), std::pair(599, 12.f) })
            QCOMPARE(demand.requests[std::size_t(step)], rate);
        // Replayed as logged: the recorded replicas at every step (no guard rails: minReplicas 3
        // changes nothing), each serving exactly when its demand arrives: nothing late.
        s.minReplicas = 3;
        auto logged = makeLoggedPolicy(rec);
        auto r = runAutoscale(demand, s, *logged);
        QVERIFY(r.ok());
        QCOMPARE(r->replicaHours, 1320.0 / 3600);
        QCOMPARE(r->scalingActions, 4); // at 60, 180, 420, 480
        QCOMPARE(r->sloViolationMinutes, 0);
        QCOMPARE(r->maxBacklog, 0.0);
        QCOMPARE(r->maxReplicas, 3);
        QCOMPARE(r->meanUtilization, 0.6);
        // The HPA on the same demand keeps at least minReplicas.
        auto hpa = makeReplicaPolicy("hpa", s, nullptr);
        auto h = runAutoscale(demand, s, *hpa);
        QVERIFY(h.ok());
        QVERIFY(h->replicaHours >= 3 * 600 / 3600.0);
        std::string error;
        QVERIFY(!makeReplicaPolicy("logged", s, &error));
        QVERIFY(error.find("instance log") != std::string::npos);

        const std::pair<std::string, std::string> bad[] = {
            { header + "i0,CN,app_a,4,,,\ni1,CN,app_a,4,1e,,\n", "bad.csv:3: creation_time: '1e' is not seconds >= 0" },
            { header + "i0,CN,app_a,4,10,,-5\n", "bad.csv:2: deletion_time: '-5' is not seconds >= 0" },
            { header + "i0,CN,app_a,4,10,,5\n", "bad.csv:2: deletion_time: before creation_time" },
            { header + "i0,CN,app_a,4,10,,2677541000\n", "bad.csv:2: deletion_time: 2677541000 s is more than 10^8 s" },
            { header + "i0,CN,app_a,4,10\n", "bad.csv:2: 5 fields where the header has 7" },
            { "instance_sn,role,app_name,creation_time\n", "bad.csv:1: no deletion_time column" },
            { header, "bad.csv: no instances after the header" },
        };
        for (const auto& [text, message] : bad) {
            auto b = readInstanceLog(write("bad.csv", text));
            QVERIFY(!b.ok());
            QVERIFY2(b.error().toString().find(message) != std::string::npos, b.error().toString().c_str());
        }
    }

    void dlrmLoggedReplicas()
    {
        SCHEDLAB_REQUIRE_REAL_TRACES();
        // SOURCES.md: 23,871 instances of 156 apps, 16,485 CN and 7,386 HN, times up to 2,677,541 s.
        auto log = readInstanceLog(test::realTrace("alibaba-gpu-v2025/disaggregated_DLRM_trace.csv"));
        QVERIFY2(log.ok(), log.ok() ? "" : log.error().toString().c_str());
        QCOMPARE(log->instances.size(), std::size_t(23871));
        QCOMPARE(log->apps.size(), std::size_t(156));
        QCOMPARE(log->endS, 2677541.0);
        int cn = 0, before = 0;
        for (const auto& in : log->instances) {
            cn += log->roles[std::size_t(in.role)] == "CN";
            before += in.before;
        }
        QCOMPARE(cn, 16485);
        QCOMPARE(before, 7280); // empty creation time
        // Every app's record adds up: the instances alive at the end are those never deleted.
        int aliveAtEnd = 0, all = 0;
        for (int a = 0; a < int(log->apps.size()); ++a) {
            const ReplicaRecord r = replicaRecord(*log, a);
            all += r.instances;
            aliveAtEnd += r.at(log->endS - 1e-6);
        }
        QCOMPARE(all, 23871);
        QVERIFY(aliveAtEnd >= 8878); // SOURCES: 8,878 rows without a deletion time (+ those deleted at the very end)
        // app_87 replayed as logged on its demand: its record's replica-hours, nothing late.
        const int app = log->appIndex("app_87");
        QVERIFY(app >= 0);
        ServiceConfig s;
        s.startupDelayS = 120;
        s.sloP99S = 1;
        s.serviceTimeS = 0.05;
        const ReplicaRecord rec = replicaRecord(*log, app);
        auto logged = makeLoggedPolicy(rec);
        auto r = runAutoscale(demandOf(replicaRecord(*log, app, -1, 120), s.capacityRps()), s, *logged);
        QVERIFY(r.ok());
        QCOMPARE(r->steps, int64_t(2677541));
        QVERIFY(std::abs(r->replicaHours - rec.replicaHours()) < 1.0); // a step takes the count at its start
    }

    void nasaWholeTrace()
    {
        SCHEDLAB_REQUIRE_REAL_TRACES();
        // Read straight from the archive: SOURCES.md gives 5,059,950 seconds and 3,461,610 requests.
        auto nasa = readLoadSeries(test::realTrace("nasa-http-1995/workload.tbz2"));
        QVERIFY2(nasa.ok(), nasa.ok() ? "" : nasa.error().toString().c_str());
        QCOMPARE(nasa->requests.size(), std::size_t(5059950));
        QCOMPARE(nasa->total(), 3461610.0);
        // The outage: 135,851 zeros from index 2,435,065.
        for (std::size_t k : { std::size_t(2435065), std::size_t(2435065 + 135850) })
            QCOMPARE(nasa->requests[k], 0.0f);
        ServiceConfig s;
        auto hpa = makeReplicaPolicy("hpa", s, nullptr);
        auto r = runAutoscale(*nasa, s, *hpa);
        QVERIFY(r.ok());
        QCOMPARE(r->requests, 3461610.0);
        QCOMPARE(r->minutes, 84333); // ceil(5,059,950 / 60)
        QVERIFY(r->replicaHours >= 5059950.0 / 3600 - 1e-6); // at least one replica throughout
        // Azure LLM conversations: a header and 19,366 requests (no newline after the last).
        auto azure = readLoadSeries(test::realTrace("azure-llm-inference-2023/AzureLLMInferenceTrace_conv.csv"));
        QVERIFY2(azure.ok(), azure.ok() ? "" : azure.error().toString().c_str());
        QCOMPARE(azure->total(), 19366.0);
    }
};

QTEST_GUILESS_MAIN(TestAutoscale)
#include "test_autoscale.moc"
