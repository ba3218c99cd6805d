#include "run_spec_codec.h"

#include <cmath>

#include <QJsonDocument>
#include <QJsonObject>

namespace schedlab::store {

namespace {

QJsonObject optionsObject(const sim::FillOptions& o)
{
    QJsonObject obj { { "ratio", o.ratio }, { "tieBreak", policy::tieBreakName(o.tieBreak) }, { "trimAboveRatio", o.trimAboveRatio } };
    if (o.migration != sim::Migration::None) { // older runs, and the default, have no key
        obj.insert("migration", sim::migrationName(o.migration));
        obj.insert("migrationBudget", double(o.migrationBudget));
    }
    return obj;
}

QJsonObject optionsObject(const sim::TimedOptions& o)
{
    QJsonObject sla;
    for (const auto& [k, v] : o.slaByQos)
        sla[QString::fromStdString(k)] = v;
    QJsonObject obj { { "tieBreak", policy::tieBreakName(o.tieBreak) }, { "window", o.p99WindowS }, { "tick", o.tickS },
        { "sla", o.defaultSlaS }, { "slaByQos", sla }, { "powerOffIdle", o.powerOffIdle } };
    if (o.head != sim::HeadRule::Resort) // older runs, and the default, have no key
        obj.insert("head", sim::headRuleName(o.head));
    if (o.preemption != sim::Preemption::None) // older runs, and the default, have no key
        obj.insert("preemption", sim::preemptionName(o.preemption));
    if (o.migration != sim::Migration::None) {
        obj.insert("migration", sim::migrationName(o.migration));
        obj.insert("migrationRestartS", o.migrationRestartS);
        obj.insert("migrationsPerHour", o.migrationsPerHour);
    }
    if (o.hasWindow()) { // older runs, and whole-trace runs, have no key
        obj.insert("windowFromS", o.windowFromS);
        obj.insert("windowToS", o.windowToS);
    }
    return obj;
}

Error rowError(const RunRow& row, const std::string& what) { return makeError(ErrorCode::Invalid, "run " + std::to_string(row.id) + " " + what); }

} // namespace

std::string optionsJson(const sim::RunSpec& spec)
{
    QJsonObject o = std::visit([](const auto& opts) { return optionsObject(opts); }, spec.options);
    if (!spec.schedulerConfig.empty()) // runs without one have no key
        o.insert("schedulerConfig", QString::fromStdString(spec.schedulerConfig));
    return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

RunInfo runInfoOf(const sim::RunSpec& spec, int64_t traceId)
{
    RunInfo info;
    info.traceId = traceId;
    info.mode = sim::runModeName(spec.mode());
    info.policy = spec.policy;
    if (const sim::TimedOptions* t = spec.timedOptions()) {
        info.queue = policy::queueOrderName(t->queue);
        info.backfill = t->backfill == sim::Backfill::Easy ? "easy" : "none";
    }
    info.optionsJson = optionsJson(spec);
    info.seed = spec.seed();
    return info;
}

Result<sim::RunSpec> specFromRow(const RunRow& row)
{
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(row.optionsJson.empty() ? "{}" : row.optionsJson), &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        return makeError(ErrorCode::Parse, "run " + std::to_string(row.id) + ": options are not a JSON object (" + err.errorString().toStdString() + ")");
    const QJsonObject o = doc.object();
    // Runs stored before the tie rule was recorded used per-decision random ties.
    policy::TieBreak tie = policy::TieBreak::Random;
    if (o.contains("tieBreak") && !policy::parseTieBreak(o.value("tieBreak").toString().toStdString(), tie))
        return rowError(row, "has an unknown tie rule '" + o.value("tieBreak").toString().toStdString() + "'");
    sim::RunMode mode;
    if (!sim::parseRunMode(row.mode, mode))
        return rowError(row, "has an unknown mode '" + row.mode + "'");
    if (mode == sim::RunMode::Fill) {
        sim::FillOptions f;
        f.seed = row.seed;
        f.ratio = o.value("ratio").toDouble(1.3);
        f.tieBreak = tie;
        // Runs stored before the trim existed replayed every pod.
        f.trimAboveRatio = o.value("trimAboveRatio").toBool(false);
        if (o.contains("migration") && !sim::parseMigration(o.value("migration").toString().toStdString(), f.migration))
            return rowError(row, "has an unknown migration '" + o.value("migration").toString().toStdString() + "'");
        const double budget = o.value("migrationBudget").toDouble(0);
        if (!std::isfinite(budget) || budget < 0)
            return rowError(row, "has an invalid migration budget");
        f.migrationBudget = int64_t(budget);
        sim::RunSpec spec = sim::RunSpec::fill(row.policy, f);
        spec.schedulerConfig = o.value("schedulerConfig").toString().toStdString();
        return spec;
    }
    sim::TimedOptions t;
    t.seed = row.seed;
    t.tieBreak = tie;
    if (!row.queue.empty() && !policy::parseQueueOrder(row.queue, t.queue))
        return rowError(row, "has an unknown queue order '" + row.queue + "'");
    t.backfill = row.backfill == "none" ? sim::Backfill::None : sim::Backfill::Easy;
    if (o.contains("head") && !sim::parseHeadRule(o.value("head").toString().toStdString(), t.head))
        return rowError(row, "has an unknown head rule '" + o.value("head").toString().toStdString() + "'");
    if (o.contains("preemption") && !sim::parsePreemption(o.value("preemption").toString().toStdString(), t.preemption))
        return rowError(row, "has an unknown preemption '" + o.value("preemption").toString().toStdString() + "'");
    if (o.contains("migration") && !sim::parseMigration(o.value("migration").toString().toStdString(), t.migration))
        return rowError(row, "has an unknown migration '" + o.value("migration").toString().toStdString() + "'");
    t.migrationRestartS = o.value("migrationRestartS").toDouble(60);
    t.migrationsPerHour = o.value("migrationsPerHour").toDouble(0);
    if (!std::isfinite(t.migrationRestartS) || t.migrationRestartS < 0 || !std::isfinite(t.migrationsPerHour) || t.migrationsPerHour < 0)
        return rowError(row, "has an invalid migration restart cost or budget");
    t.p99WindowS = o.value("window").toDouble(3600);
    t.windowFromS = o.value("windowFromS").toDouble(-1);
    t.windowToS = o.value("windowToS").toDouble(-1);
    if (!std::isfinite(t.windowFromS) || !std::isfinite(t.windowToS) || t.windowFromS < -1 || t.windowToS < -1
        || (t.windowFromS >= 0 && t.windowToS >= 0 && t.windowToS <= t.windowFromS))
        return rowError(row, "has an invalid replay window");
    t.tickS = o.value("tick").toDouble(0);
    t.defaultSlaS = o.value("sla").toDouble(3600);
    const QJsonObject sla = o.value("slaByQos").toObject();
    for (auto it = sla.begin(); it != sla.end(); ++it)
        t.slaByQos[it.key().toStdString()] = it.value().toDouble();
    t.powerOffIdle = o.value("powerOffIdle").toBool(false);
    sim::RunSpec spec = sim::RunSpec::timed(row.policy, t);
    spec.schedulerConfig = o.value("schedulerConfig").toString().toStdString();
    return spec;
}

} // namespace schedlab::store
