#include "run_spec.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace schedlab::incident {

std::string optionsJson(const sim::FillOptions& o)
{
    return QJsonDocument(QJsonObject { { "ratio", o.ratio }, { "tieBreak", policy::tieBreakName(o.tieBreak) } }).toJson(QJsonDocument::Compact).toStdString();
}

std::string optionsJson(const sim::TimedOptions& o)
{
    QJsonObject sla;
    for (const auto& [k, v] : o.slaByQos)
        sla[QString::fromStdString(k)] = v;
    return QJsonDocument(QJsonObject { { "tieBreak", policy::tieBreakName(o.tieBreak) }, { "window", o.p99WindowS }, { "tick", o.tickS },
                             { "sla", o.defaultSlaS }, { "slaByQos", sla }, { "powerOffIdle", o.powerOffIdle } })
        .toJson(QJsonDocument::Compact)
        .toStdString();
}

Result<RunSpec> specFromRow(const store::RunRow& row)
{
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(row.optionsJson.empty() ? "{}" : row.optionsJson), &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        return makeError(ErrorCode::Parse, "run " + std::to_string(row.id) + ": options are not a JSON object (" + err.errorString().toStdString() + ")");
    const QJsonObject o = doc.object();
    RunSpec s;
    s.policy = row.policy;
    // Runs stored before the tie rule was recorded used per-decision random ties.
    policy::TieBreak tie = policy::TieBreak::Random;
    if (o.contains("tieBreak") && !policy::parseTieBreak(o.value("tieBreak").toString().toStdString(), tie))
        return makeError(ErrorCode::Invalid, "run " + std::to_string(row.id) + " has an unknown tie rule '"
                + o.value("tieBreak").toString().toStdString() + "'");
    if (row.mode == "fill") {
        s.fill = true;
        s.fillOptions.seed = row.seed;
        s.fillOptions.ratio = o.value("ratio").toDouble(1.3);
        s.fillOptions.tieBreak = tie;
        return s;
    }
    if (row.mode != "timed")
        return makeError(ErrorCode::Invalid, "run " + std::to_string(row.id) + " has an unknown mode '" + row.mode + "'");
    sim::TimedOptions& t = s.timedOptions;
    t.seed = row.seed;
    t.tieBreak = tie;
    if (!row.queue.empty() && !policy::parseQueueOrder(row.queue, t.queue))
        return makeError(ErrorCode::Invalid, "run " + std::to_string(row.id) + " has an unknown queue order '" + row.queue + "'");
    t.backfill = row.backfill == "none" ? sim::Backfill::None : sim::Backfill::Easy;
    t.p99WindowS = o.value("window").toDouble(3600);
    t.tickS = o.value("tick").toDouble(0);
    t.defaultSlaS = o.value("sla").toDouble(3600);
    const QJsonObject sla = o.value("slaByQos").toObject();
    for (auto it = sla.begin(); it != sla.end(); ++it)
        t.slaByQos[it.key().toStdString()] = it.value().toDouble();
    t.powerOffIdle = o.value("powerOffIdle").toBool(false);
    return s;
}

} // namespace schedlab::incident
