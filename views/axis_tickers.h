#pragma once
// Axis tickers whose labels never run into each other: the step is the smallest "nice" one whose
// labels, measured in the axis' tick-label font, leave a gap between every two neighbours in the
// axis' pixel width (at any window width). SpacedTicker ticks plain numbers (arrived workload %); TimeTicker ticks the
// dashboard's time axis (hours) in s, min, h or days since the trace's first submit, or in UTC
// dates when the trace has an epoch (SWF UnixStartTime, Kubernetes timestamps).

#include <qcustomplot.h>

#include <optional>
#include <vector>

namespace schedlab::views {

class SpacedTicker : public QCPAxisTicker {
public:
    explicit SpacedTicker(QCPAxis* axis);
    void generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision, QVector<double>& ticks,
        QVector<double>* subTicks, QVector<QString>* tickLabels) override;
    /// The step of the last generate() in axis units.
    double lastStep() const { return m_lastStep; }
    /// The axis length in pixels the last generate() spaced its labels for (-1 before any), and
    /// the length the axis has now.
    double spacedForPixels() const { return m_spacedFor; }
    double axisPixelsNow() const { return axisPixels(); }

protected:
    /// Candidate steps, smallest first, in axis units.
    virtual std::vector<double> candidateSteps(const QCPRange& range) const;
    /// Ticks of `step` inside `range`.
    virtual QVector<double> ticksFor(double step, const QCPRange& range) const;
    virtual QString labelFor(double tick, double step) const;
    /// The labels of `ticks` (a step of `step`), in order: labelFor each unless a label depends on
    /// its neighbour (dated axes name the day only where it changes).
    virtual QVector<QString> labelsFor(const QVector<double>& ticks, double step) const;
    /// Sub-ticks between two ticks of `step` (0 = none).
    virtual int subTicksFor(double step) const;
    /// The smallest space a step of `step` axis units is sure to take on screen (a month step
    /// counts as its shortest month), in axis units.
    virtual double minSpan(double step) const { return step; }

    double axisPixels() const;
    double textWidth(const QString& text) const;

private:
    QCPAxis* m_axis;
    double m_lastStep = 0;
    double m_spacedFor = -1;
};

/// The dashboard's time axis: plot x is hours since `originS` (trace seconds).
class TimeTicker : public SpacedTicker {
public:
    explicit TimeTicker(QCPAxis* axis);
    /// Labels count from `zeroS` (trace seconds: the trace's first submit); with `epochUnixS`
    /// (unix seconds of trace time 0) they are UTC dates instead.
    void setOrigin(double originS, double zeroS, std::optional<double> epochUnixS);
    bool dated() const { return m_epoch.has_value(); }
    /// "time since first submit" or "date (UTC, 2002)": the axis title that goes with the labels
    /// (day and hour labels of that year leave the year out).
    QString axisTitle() const;
    /// One x (plot hours) as the labels would say it at the finest step: "51 d 13:30", "2002-07-28 14:05".
    QString describe(double x) const;

protected:
    std::vector<double> candidateSteps(const QCPRange& range) const override;
    QVector<double> ticksFor(double step, const QCPRange& range) const override;
    QString labelFor(double tick, double step) const override;
    QVector<QString> labelsFor(const QVector<double>& ticks, double step) const override;
    int subTicksFor(double step) const override;
    double minSpan(double step) const override;

private:
    /// "14:05" (steps of a minute or more), "14:05:30", "14:05:30.5": a dated tick's time of day.
    static QString timeOfDay(double unixS, double stepS);
    int startYear() const; ///< UTC year of the first submit (dated axes)
    double labelSeconds(double x) const; ///< plot hours -> seconds since zeroS, or unix seconds when dated
    double plotX(double labelS) const;
    double m_originS = 0, m_zeroS = 0;
    std::optional<double> m_epoch;
};

/// Puts a SpacedTicker (fill: arrived %) or TimeTicker (timed) on `axis`; returns the TimeTicker
/// (null for fill).
QSharedPointer<TimeTicker> installXTicker(QCPAxis* axis, bool time, double originS, double zeroS,
    std::optional<double> epochUnixS);

} // namespace schedlab::views
