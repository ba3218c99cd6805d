#pragma once
// Reward editor (DESIGN §6): a spin box and a slider per weight (balance, packing, success,
// custom), the custom term, the tail-latency penalty parameters, presets, the normalised weights,
// validation, and undo/redo of every edit (QUndoStack; consecutive edits of one field merge).

#include "rl/reward.h"

#include <QWidget>

#include <array>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QUndoStack;

namespace schedlab::views {

class RewardEditor : public QWidget {
    Q_OBJECT
public:
    explicit RewardEditor(QWidget* parent = nullptr);
    rl::RewardConfig config() const { return m_config; }
    /// Replaces the configuration as one undoable step (pass undoable=false when loading a project).
    void setConfig(const rl::RewardConfig& c, bool undoable = true);
    /// False when every weight is zero (nothing to optimise); the editor says why.
    bool isValid() const;
    QUndoStack* undoStack() const { return m_undo; }
    /// The normalised weights as shown ("0.40 / 0.30 / 0.20 / 0.10").
    QString normalisedText() const;
    QDoubleSpinBox* weightSpin(int i) const { return m_spins[std::size_t(i)]; }
    QSlider* weightSlider(int i) const { return m_sliders[std::size_t(i)]; }
    QComboBox* presetBox() const { return m_preset; }

signals:
    void changed(const schedlab::rl::RewardConfig& config);

private:
    friend class RewardEditCommand;
    void apply(const rl::RewardConfig& c); // no undo entry: shows c and emits changed
    void edit(int field, const rl::RewardConfig& next);
    rl::RewardConfig m_config;
    std::array<QDoubleSpinBox*, 4> m_spins {};
    std::array<QSlider*, 4> m_sliders {};
    QComboBox* m_custom = nullptr;
    QComboBox* m_preset = nullptr;
    QDoubleSpinBox* m_target = nullptr;
    QDoubleSpinBox* m_scale = nullptr;
    QDoubleSpinBox* m_rate = nullptr;
    QDoubleSpinBox* m_cap = nullptr;
    QLabel* m_normalised = nullptr;
    QUndoStack* m_undo = nullptr;
    bool m_updating = false;
};

} // namespace schedlab::views
