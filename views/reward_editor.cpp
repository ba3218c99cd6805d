#include "reward_editor.h"

namespace schedlab::views {

namespace {

// The fields in schema order: weights, custom term, tail penalty.
std::vector<double> valuesOf(const rl::RewardConfig& c)
{
    return { c.balance, c.packing, c.success, c.custom, double(int(c.customTerm)), c.p99TargetS, c.tailScale, c.tailRate, c.tailCap };
}

WeightSchema schema()
{
    WeightSchema s;
    for (const char* w : { "balance", "packing", "success", "custom" })
        s.fields.push_back(WeightSchema::weight(QString::fromLatin1(w)));
    s.fields.push_back(WeightSchema::choice("customTerm", QObject::tr("Custom term"), { "energy", "fragmentation", "wait" }));
    s.fields.push_back(WeightSchema::number("p99Target", QObject::tr("p99 wait target"), 1, 1e7, 60, QObject::tr(" s")));
    addTailFields(s);
    for (const char* p : { "default", "latency-first", "packing-first" })
        s.presets.emplace_back(QString::fromLatin1(p), valuesOf(rl::RewardConfig::preset(p).value()));
    s.objectPrefix = QStringLiteral("reward");
    s.toolTip = QObject::tr("reward = normalised weights x (balance, packing, success, custom) + tail penalty\n"
                            "tail = -scale x min(cap, exp(rate x (wait - target) / target) - 1) once wait > target");
    return s;
}

} // namespace

RewardEditor::RewardEditor(QWidget* parent)
    : WeightEditor(schema(), valuesOf(rl::RewardConfig {}), parent)
{
    connect(this, &WeightEditor::valuesChanged, this, [this] { emit changed(config()); });
}

rl::RewardConfig RewardEditor::config() const
{
    const std::vector<double>& v = values();
    rl::RewardConfig c;
    c.balance = v[0];
    c.packing = v[1];
    c.success = v[2];
    c.custom = v[3];
    c.customTerm = rl::CustomTerm(int(v[4]));
    c.p99TargetS = v[5];
    c.tailScale = v[6];
    c.tailRate = v[7];
    c.tailCap = v[8];
    return c;
}

void RewardEditor::setConfig(const rl::RewardConfig& c, bool undoable) { setValues(valuesOf(c), undoable); }

} // namespace schedlab::views
