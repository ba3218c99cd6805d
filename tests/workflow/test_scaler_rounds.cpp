// Fine-tune rounds of the learned replica policy in a project (core/workflow/scaler_rounds.h): a
// two-round session on two days of a daily cycle (trained on day 1, judged on day 2) stores its
// lineage, seeds, curves, checkpoints (hash checked, no partial file left) and an evaluation whose
// baseline figures equal a replay of the same span in core and whose learned figures equal a replay
// of the stored checkpoint; options are refused before any row is written; parents are checked by
// kind both ways; a cancelled round is marked so and leaves the round before it.

#include "autoscale/autoscale_replay.h"
#include "autoscale/learned_scaler.h"
#include "rl/fine_tune.h"
#include "rl/q_network.h"
#include "store/project.h"
#include "workflow/fine_tune_session.h"
#include "workflow/scaler_rounds.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace schedlab;
using namespace schedlab::autoscale;
using namespace schedlab::workflow;

namespace {

/// Days of a daily cycle: 0.3 req/s at night to 3 req/s at noon (whole requests, no randomness).
LoadSeries dailyLoad(int days)
{
    LoadSeries s;
    s.name = "daily";
    for (int k = 0; k < days * 86400; ++k) {
        const double r = 0.3 + 2.7 * (0.5 - 0.5 * std::cos(2 * M_PI * double(k % 86400) / 86400.0));
        s.requests.push_back(float(std::floor(double(k + 1) * r) - std::floor(double(k) * r)));
    }
    return s;
}

ServiceConfig slowService()
{
    ServiceConfig s;
    s.serviceTimeS = 1.0;
    s.sloP99S = 5;
    s.startupDelayS = 60;
    s.minReplicas = 1;
    s.maxReplicas = 20;
    return s;
}

ScalerRoundOptions dayOneOptions(const std::string& dir)
{
    ScalerRoundOptions o;
    o.loadPath = "daily.txt";
    o.checkpointDir = dir;
    o.train.durationS = 86400; // day 1; evaluated on day 2
    o.train.episodes = 1;
    o.train.seed = 7;
    o.baselines = { "hpa", "static:3" };
    return o;
}

double evalOf(const std::vector<store::EvalValue>& values, const std::string& policy, const std::string& metric)
{
    for (const store::EvalValue& v : values)
        if (v.policy == policy && v.metric == metric)
            return v.value;
    return std::nan("");
}

} // namespace

class TestScalerRounds : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }

private slots:
    void twoRoundsWithLineage()
    {
        const LoadSeries load = dailyLoad(2);
        const ServiceConfig service = slowService();
        auto project = store::Project::open(path("a.schedlab"));
        QVERIFY(project.ok());
        const std::string dir = path("a.models");
        QVERIFY(QDir().mkpath(QString::fromStdString(dir)));
        std::vector<int> episodesPerRound(3, 0);
        ScalerSessionCallbacks cb;
        cb.episode = [&](int round, const ScalerEpisode&) { ++episodesPerRound[std::size_t(round)]; };
        auto session = runScalerSession(load, service, project->get(), dayOneOptions(dir), 2, cb);
        QVERIFY2(session.ok(), session.ok() ? "" : session.error().toString().c_str());
        QCOMPARE(int(session->size()), 2);
        QCOMPARE(episodesPerRound[1], 1);
        QCOMPARE(episodesPerRound[2], 1);

        auto rows = (*project)->rounds();
        QVERIFY(rows.ok());
        QCOMPARE(int(rows->size()), 2);
        const store::RoundRow &first = rows->at(0), &second = rows->at(1);
        QCOMPARE(first.kind, store::RoundKind::Autoscale);
        QCOMPARE(first.parentId, int64_t(-1));
        QCOMPARE(second.parentId, first.id); // the lineage
        QCOMPARE(first.seed, uint64_t(7));
        QCOMPARE(second.seed, uint64_t(8)); // seed + round x episodes: fresh episodes every round
        QCOMPARE(first.weights, ScalerReward {}.toString());
        for (const store::RoundRow& r : rows.value()) {
            QCOMPARE(r.status, std::string("finished"));
            QCOMPARE(r.checkpoint, dir + "/round-" + std::to_string(r.id) + ".slq");
            QCOMPARE(rl::fileSha256(r.checkpoint), r.checkpointSha256);
            QVERIFY(!QFile::exists(QString::fromStdString(r.checkpoint + ".partial")));
            auto curve = (*project)->roundCurve(r.id);
            QVERIFY(curve.ok());
            QCOMPARE(int(curve->size()), 1);
            QVERIFY(curve->front().decisions > 86400 / 15 - 10);
        }
        QVERIFY(first.window.find("0 h-24 h") != std::string::npos);

        // The stored evaluation: baselines as a replay of day 2 in core, the learned policy as a
        // replay of the stored checkpoint.
        auto eval = (*project)->roundEval(second.id);
        QVERIFY(eval.ok());
        QCOMPARE(int(eval->size()), 3 * int(scalerEvalMetrics().size()));
        AutoscaleOptions day2;
        day2.fromS = 86400;
        day2.durationS = 86400;
        auto hpa = makeReplicaPolicy("hpa", service, nullptr);
        auto hpaRun = runAutoscale(load, service, *hpa, day2);
        QVERIFY(hpaRun.ok());
        QCOMPARE(evalOf(*eval, "hpa", "replicaHours"), hpaRun->replicaHours);
        QCOMPARE(evalOf(*eval, "hpa", "sloViolationMinutes"), double(hpaRun->sloViolationMinutes));
        auto learned = loadLearnedScaler(second.checkpoint, service);
        QVERIFY(learned.ok());
        auto learnedRun = runAutoscale(load, service, **learned, day2);
        QVERIFY(learnedRun.ok());
        QCOMPARE(evalOf(*eval, "learned", "replicaHours"), learnedRun->replicaHours);
        QCOMPARE(evalOf(*eval, "learned", "scalingActions"), double(learnedRun->scalingActions));
        QCOMPARE(session->back().eval.front().replicaHours, learnedRun->replicaHours);
        QCOMPARE(session->back().evalFromS, 86400.0);
        QCOMPARE(session->back().evalToS, 172800.0);
        // static:3: the replay starts with enough replicas for the first minute (0.3 req/s at
        // midnight: 1) and the first sync, 15 s in, sets 3: (15 + 3 x 86385) / 3600 replica-h.
        QCOMPARE(evalOf(*eval, "static:3", "replicaHours"), (15 + 3 * 86385) / 3600.0);
    }

    void optionsRefusedBeforeAnyRow()
    {
        const LoadSeries load = dailyLoad(1);
        auto project = store::Project::open(path("b.schedlab"));
        QVERIFY(project.ok());
        ScalerRoundOptions o = dayOneOptions(path("b.models"));
        auto refused = [&](const ScalerRoundOptions& opts, const char* words) {
            auto r = runScalerRound(load, slowService(), project->get(), opts);
            if (r.ok() || r.error().message.find(words) == std::string::npos) {
                qWarning("%s", r.ok() ? "ran" : r.error().message.c_str());
                return false;
            }
            return true;
        };
        QVERIFY(refused(o, "nothing is left to evaluate")); // day 1 of a one-day load
        o.train.durationS = 43200;
        o.evalFromS = 3600;
        QVERIFY(refused(o, "inside the training span"));
        o.evalFromS = -1;
        o.baselines = { "vpa" };
        QVERIFY(refused(o, "unknown replica policy 'vpa'"));
        o.baselines = { "hpa" };
        o.train.reward.latency = o.train.reward.cost = o.train.reward.sla = 0;
        QVERIFY(refused(o, "at least one weight"));
        o.train.reward = ScalerReward {};
        o.train.fromS = 90000;
        QVERIFY(refused(o, "outside the load"));
        QCOMPARE(int((*project)->rounds()->size()), 0);
    }

    void parentsCheckedByKind()
    {
        auto project = store::Project::open(path("c.schedlab"));
        QVERIFY(project.ok());
        // A finished placement round and a finished replica-policy round, rows only.
        store::RoundInfo placement;
        placement.kind = store::RoundKind::Fill;
        auto p = (*project)->beginRound(placement);
        QVERIFY(p.ok());
        QVERIFY((*project)->finishRound(*p, "p.slq", "00", {}, {}, 1).ok());
        store::RoundInfo scaler;
        scaler.kind = store::RoundKind::Autoscale;
        auto s = (*project)->beginRound(scaler);
        QVERIFY(s.ok());
        QVERIFY((*project)->finishRound(*s, "s.slq", "00", {}, {}, 1).ok());
        auto ok = resolveScalerParent(std::to_string(*s), project->get());
        QVERIFY(ok.ok());
        QCOMPARE(ok->first, std::string("s.slq"));
        QCOMPARE(ok->second, *s);
        auto wrong = resolveScalerParent(std::to_string(*p), project->get());
        QVERIFY(!wrong.ok());
        QVERIFY2(wrong.error().message.find("placement agent") != std::string::npos, wrong.error().message.c_str());
        auto wrongWay = resolveParent(std::to_string(*s), project->get());
        QVERIFY(!wrongWay.ok());
        QVERIFY2(wrongWay.error().message.find("replica policy") != std::string::npos, wrongWay.error().message.c_str());
        // A placement checkpoint as the parent file: refused by name before a round begins.
        const std::string placementFile = path("placement.slq");
        auto net = rl::QNetwork::create(1);
        QVERIFY(net.ok());
        QVERIFY((*net)->save(placementFile).ok());
        ScalerRoundOptions o = dayOneOptions(path("c.models"));
        o.parentCheckpoint = placementFile;
        auto r = runScalerRound(dailyLoad(2), slowService(), project->get(), o);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().toString().find("placement.slq") != std::string::npos, r.error().toString().c_str());
        QVERIFY(r.error().toString().find("not a replica-policy checkpoint") != std::string::npos);
        QCOMPARE(int((*project)->rounds()->size()), 2);
    }

    void cancelledRoundKeepsTheOneBefore()
    {
        auto project = store::Project::open(path("d.schedlab"));
        QVERIFY(project.ok());
        const std::string dir = path("d.models");
        QVERIFY(QDir().mkpath(QString::fromStdString(dir)));
        CancelToken cancel;
        ScalerSessionCallbacks cb;
        cb.roundFinished = [&](int, const ScalerRoundResult&) { cancel.cancel(); }; // stop in round 2
        auto session = runScalerSession(dailyLoad(2), slowService(), project->get(), dayOneOptions(dir), 2, cb, cancel);
        QVERIFY(!session.ok());
        QVERIFY(session.error().isCancelled());
        auto rows = (*project)->rounds();
        QCOMPARE(int(rows->size()), 2);
        QCOMPARE(rows->at(0).status, std::string("finished"));
        QVERIFY(QFile::exists(QString::fromStdString(rows->at(0).checkpoint)));
        QCOMPARE(rows->at(1).status, std::string("cancelled"));
        QCOMPARE(rows->at(1).parentId, rows->at(0).id);
        const QString second = QString::fromStdString(dir + "/round-" + std::to_string(rows->at(1).id) + ".slq");
        QVERIFY(!QFile::exists(second));
        QVERIFY(!QFile::exists(second + ".partial"));
    }
};

QTEST_GUILESS_MAIN(TestScalerRounds)
#include "test_scaler_rounds.moc"
