#pragma once
// JSON for replay results (schema schedlab.replay/1, docs/cli-json.md).

#include "sim/fill_experiment.h"
#include "sim/timed_replay.h"

#include <QJsonObject>

namespace schedlab::cli {

QJsonObject fillResultToJson(const sim::FillResult& r);
QJsonObject timedResultToJson(const sim::TimedResult& r);

} // namespace schedlab::cli
