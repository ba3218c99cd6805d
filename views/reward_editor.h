#pragma once
// The placement agent's reward editor (docs/rl.md §2): the weight editor (weight_editor.h) with the
// balance, packing, success and custom weights, the custom term, the tail-latency penalty
// parameters and rl::RewardConfig's presets.

#include "weight_editor.h"

#include "rl/reward.h"

namespace schedlab::views {

class RewardEditor : public WeightEditor {
    Q_OBJECT
public:
    explicit RewardEditor(QWidget* parent = nullptr);
    rl::RewardConfig config() const;
    /// Replaces the configuration as one undoable step (pass undoable=false when loading a project).
    void setConfig(const rl::RewardConfig& c, bool undoable = true);

signals:
    void changed(const schedlab::rl::RewardConfig& config);
};

} // namespace schedlab::views
