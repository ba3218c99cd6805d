// The learned replica policy (core/autoscale/learned_scaler.h, scaler_features.h): its reward and
// features by hand, action masking by the guard rails, deterministic training, checkpoints that
// are refused when they are not a replica policy's, and weights that change behaviour the way
// they say (a cost-heavy reward ends with fewer replica-hours than an SLA-heavy one, on load it
// never trained on).

#include "test_util.h"

#include "autoscale/autoscale_replay.h"
#include "autoscale/learned_scaler.h"
#include "rl/q_network.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace schedlab;
using namespace schedlab::autoscale;

namespace {

/// Two days of a daily cycle: 0.3 req/s at night, 3 req/s by day (6 h ramps), Poisson-free.
LoadSeries dailyLoad(int days)
{
    LoadSeries s;
    s.name = "daily";
    for (int k = 0; k < days * 86400; ++k) {
        const double phase = double(k % 86400) / 86400.0;
        const double day = 0.5 - 0.5 * std::cos(2 * M_PI * phase); // 0 at midnight, 1 at noon
        // Whole requests per second, spread deterministically: rate r gives floor((k+1) r) - floor(k r).
        const double r = 0.3 + 2.7 * day;
        s.requests.push_back(float(std::floor(double(k + 1) * r) - std::floor(double(k) * r)));
    }
    return s;
}

ServiceConfig slowService()
{
    ServiceConfig s;
    s.serviceTimeS = 1.0; // mu = 1, capacity 0.6 req/s per replica at the target
    s.sloP99S = 5;
    s.startupDelayS = 60;
    s.minReplicas = 1;
    s.maxReplicas = 20;
    return s;
}

} // namespace

class TestLearnedScaler : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void rewardByHand()
    {
        ServiceConfig s; // 100 ms, 60 %: 6 req/s per replica
        s.sloP99S = 1;
        const ScalerReward w; // latency 0.3, cost 0.3, sla 0.4, tail 1 / 1 / 10
        // 4 replicas at 9 req/s (2 needed): cost (4 - 2) / 2 / 4 = 0.25; 2 % late: latency 0.4,
        // SLA 1; p99 1.5 s: tail e^0.5 - 1.
        const ScalerRewardTerms t = scalerReward(w, s, 4, 0.02, 1.5, 9);
        QCOMPARE(t.cost, 0.25);
        QCOMPARE(t.latency, 0.4);
        QCOMPARE(t.sla, 1.0);
        QVERIFY(std::abs(t.tail - (std::exp(0.5) - 1)) < 1e-12);
        QVERIFY(std::abs(t.total - (-(0.3 * 0.4 + 0.3 * 0.25 + 0.4) - (std::exp(0.5) - 1))) < 1e-12);
        // Under-provisioned costs nothing; on time, no tail; weights are normalised.
        const ScalerRewardTerms u = scalerReward(ScalerReward::parse("latency=1,cost=1,sla=2", w).value(), s, 1, 0, 0.5, 9);
        QCOMPARE(u.cost, 0.0);
        QCOMPARE(u.tail, 0.0);
        QCOMPARE(u.total, 0.0);
        QVERIFY(std::abs(scalerReward(ScalerReward::parse("latency=1,cost=1,sla=2", w).value(), s, 1, 0.5, 0.5, 9).total
                         - -(1.0 * 1 + 2.0 * 1) / 4)
            < 1e-12);
        for (const auto& [text, message] : { std::pair("cost=-1", "cost: '-1' is not a number >= 0"),
                 std::pair("speed=1", "unknown key 'speed'"), std::pair("latency=0,cost=0,sla=0", "all 0"), std::pair("cost", "not key=value") }) {
            auto r = ScalerReward::parse(text, w);
            QVERIFY(!r.ok());
            QVERIFY2(r.error().message.find(message) != std::string::npos, r.error().message.c_str());
        }
    }

    void featuresAndMasking()
    {
        ServiceConfig s; // 6 req/s per replica
        s.minReplicas = 2;
        s.maxReplicas = 6;
        s.maxChangePerDecision = 3;
        std::vector<float> load(600, 12.0f); // 12 req/s for 10 minutes
        ScalerView v;
        v.current = 3;
        v.ready = 3;
        v.utilization = 0.4;
        v.load = &load;
        v.step = 300;
        ScalerState st(s);
        st.observe(v);
        QCOMPARE(st.rateNow(), 12.0);
        // big = max(2, ceil(0.6)) = 2, huge = max(4, ceil(1.5)) = 4.
        QCOMPARE(st.deltas(), (std::array<int, kScalerActions> { -2, -1, 0, 1, 2, 4 }));
        // 3 - 2 = 1 < min; 3 + 4 = 7 > max (and beyond the change limit); the rest allowed.
        const bool allowed[kScalerActions] = { false, true, true, true, true, false };
        for (int a = 0; a < kScalerActions; ++a)
            QCOMPARE(st.allowed(a), allowed[a]);
        float row[kScalerFeatures];
        st.features(3, row); // +1: 4 replicas, 24 req/s of capacity
        QCOMPARE(row[0], 1.0f);
        QCOMPARE(row[1], float(1.0 / 3));
        QCOMPARE(row[2], float(12.0 / 24 / 4));
        QCOMPARE(row[3], float(12.0 / 24 / 4)); // flat load: the trend adds nothing
        QCOMPARE(row[6], 0.4f);
        QCOMPARE(row[7], 1.0f);
        QCOMPARE(row[12], float(4.0 / 6));
    }

    void trainsDeterministicallyAndRefusesOtherCheckpoints()
    {
        const LoadSeries load = dailyLoad(1);
        const ServiceConfig s = slowService();
        ScalerTrainOptions o;
        o.episodes = 1;
        o.durationS = 6 * 3600;
        uint64_t hashes[3] = {};
        for (int i = 0; i < 3; ++i) {
            o.seed = i < 2 ? 7 : 8;
            auto net = rl::QNetwork::create(o.seed, { kScalerFeatures, 64, 32 });
            QVERIFY2(net.ok(), net.ok() ? "" : net.error().toString().c_str());
            auto r = trainScaler(**net, load, s, o);
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
            QCOMPARE(int(r->episodes.size()), 1);
            QCOMPARE(r->episodes[0].decisions, int64_t(6 * 3600 / 15 - 2)); // every sync but the first; rewarded from the second
            QVERIFY(r->gradientSteps > 0);
            QVERIFY((*net)->allFinite());
            hashes[i] = (*net)->weightHash();
            if (i == 0) {
                const std::string path = m_dir.filePath("scaler.slq").toStdString();
                QVERIFY((*net)->save(path).ok());
                std::string error;
                auto p = makeAnyReplicaPolicy("learned:" + path, s, &error);
                QVERIFY2(p, error.c_str());
                QCOMPARE(p->name(), std::string("learned:scaler.slq"));
                AutoscaleOptions window;
                window.fromS = 12 * 3600;
                window.durationS = 3600;
                auto run = runAutoscale(load, s, *p, window);
                QVERIFY(run.ok());
                QCOMPARE(run->steps, int64_t(3600));
            }
        }
        QCOMPARE(hashes[0], hashes[1]);
        QVERIFY(hashes[0] != hashes[2]);
        // A placement checkpoint (16 features) is not a replica policy; a network of the wrong
        // shape is not trained.
        auto placement = rl::QNetwork::create(1);
        QVERIFY(placement.ok());
        const std::string other = m_dir.filePath("placement.slq").toStdString();
        QVERIFY((*placement)->save(other).ok());
        std::string error;
        QVERIFY(!makeAnyReplicaPolicy("learned:" + other, s, &error));
        QVERIFY2(error.find("placement.slq") != std::string::npos && error.find("takes 16 features") != std::string::npos, error.c_str());
        QVERIFY(!trainScaler(**placement, load, s, o).ok());
        QVERIFY(!makeAnyReplicaPolicy("learned:" + m_dir.filePath("missing.slq").toStdString(), s, &error));
    }

    void weightsChangeBehaviour()
    {
        // Trained on day 1, run on day 2: a cost-heavy reward keeps fewer replicas than an
        // SLA-heavy one, and the SLA-heavy one has fewer minutes over the SLO.
        const LoadSeries load = dailyLoad(2);
        const ServiceConfig s = slowService();
        AutoscaleResult runs[2];
        const char* weights[2] = { "latency=0,cost=0.9,sla=0.1", "latency=0.3,cost=0.1,sla=0.6" };
        for (int i = 0; i < 2; ++i) {
            ScalerTrainOptions o;
            o.episodes = 2;
            o.durationS = 86400;
            o.reward = ScalerReward::parse(weights[i], ScalerReward {}).value();
            auto net = rl::QNetwork::create(3, { kScalerFeatures, 64, 32 });
            QVERIFY(net.ok());
            auto r = trainScaler(**net, load, s, o);
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
            auto policy = makeLearnedScaler(std::move(net).value(), s);
            AutoscaleOptions day2;
            day2.fromS = 86400;
            auto run = runAutoscale(load, s, *policy, day2);
            QVERIFY(run.ok());
            runs[i] = std::move(run).value();
        }
        QVERIFY2(runs[0].replicaHours < runs[1].replicaHours,
            qPrintable(QString("cost-heavy %1 replica-h, SLA-heavy %2").arg(runs[0].replicaHours).arg(runs[1].replicaHours)));
        QVERIFY2(runs[0].sloViolationMinutes > runs[1].sloViolationMinutes,
            qPrintable(QString("cost-heavy %1 SLO min, SLA-heavy %2").arg(runs[0].sloViolationMinutes).arg(runs[1].sloViolationMinutes)));
    }
};

QTEST_GUILESS_MAIN(TestLearnedScaler)
#include "test_learned_scaler.moc"
