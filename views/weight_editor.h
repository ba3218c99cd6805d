#pragma once
// The reward editor's widget, for any weighted reward (docs/rl.md §2; the placement agent's
// RewardEditor and the replica policy's ScalerRewardEditor are two schemas of it): a slider and a
// spin box per weight, further numeric or choice fields, presets, the normalised weights,
// validation (not every weight zero), and undo/redo of every edit (QUndoStack; consecutive edits
// of one field merge, so dragging a slider is one step).

#include <QStringList>
#include <QWidget>

#include <utility>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QUndoStack;

namespace schedlab::views {

struct WeightSchema {
    struct Field {
        QString name; ///< "balance"; a weight's spin box is objectName "weight_<name>"
        QString label; ///< shown; empty = name
        bool weight = false; ///< a weight (slider, normalised) or a further field (form row)
        double lo = 0, hi = 1, step = 0.05;
        int decimals = 2;
        QString suffix;
        QStringList choices; ///< non-empty: a choice, its value the index
    };
    static Field weight(const QString& name) { return { name, {}, true, 0, 1, 0.05, 2, {}, {} }; }
    static Field number(const QString& name, const QString& label, double lo, double hi, double step, const QString& suffix = {})
    {
        return { name, label, false, lo, hi, step, 2, suffix, {} };
    }
    static Field choice(const QString& name, const QString& label, const QStringList& choices) { return { name, label, false, 0, 0, 0, 0, {}, choices }; }
    std::vector<Field> fields;
    std::vector<std::pair<QString, std::vector<double>>> presets; ///< name, values of every field
    QString objectPrefix; ///< "reward": "rewardPreset", "rewardUndo", "rewardNormalised"
    QString toolTip;
};

/// The tail penalty's scale, rate and cap (both rewards share the placement agent's formula).
void addTailFields(WeightSchema& schema);

class WeightEditor : public QWidget {
    Q_OBJECT
public:
    WeightEditor(WeightSchema schema, std::vector<double> initial, QWidget* parent = nullptr);
    const std::vector<double>& values() const { return m_values; }
    /// Replaces the values as one undoable step (undoable=false: clears the history, e.g. when
    /// loading a project).
    void setValues(const std::vector<double>& values, bool undoable = true);
    /// False when every weight is zero (nothing to optimise); the editor says why.
    bool isValid() const;
    /// The weights divided by their sum, as shown ("0.40 / 0.30 / 0.20 / 0.10").
    QString normalisedText() const;
    QUndoStack* undoStack() const { return m_undo; }
    /// The spin box and slider of the i-th weight (in schema order, counting weights only).
    QDoubleSpinBox* weightSpin(int i) const { return m_spins[std::size_t(m_weightFields[std::size_t(i)])]; }
    QSlider* weightSlider(int i) const { return m_sliders[std::size_t(i)]; }
    QComboBox* presetBox() const { return m_preset; }

signals:
    void valuesChanged(const std::vector<double>& values);

private:
    friend class WeightEditCommand;
    void apply(const std::vector<double>& v); // no undo entry: shows v and emits valuesChanged
    void edit(int field, double value);
    WeightSchema m_schema;
    std::vector<double> m_values;
    std::vector<int> m_weightFields; ///< field index of each weight
    std::vector<QDoubleSpinBox*> m_spins; ///< per field (null for a choice)
    std::vector<QComboBox*> m_choices; ///< per field (null unless a choice)
    std::vector<QSlider*> m_sliders; ///< per weight
    QComboBox* m_preset = nullptr;
    QLabel* m_normalised = nullptr;
    QUndoStack* m_undo = nullptr;
    bool m_updating = false;
};

} // namespace schedlab::views
