#include "axis_tickers.h"

#include <QDateTime>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace schedlab::views {

namespace {
constexpr double kDayS = 86400;
constexpr int kMaxTicks = 2000; // a candidate with more ticks than this cannot fit any screen

// "7", "07": a non-negative integer with at least `width` digits.
QString padded(long long v, int width) { return QStringLiteral("%1").arg(v, width, 10, QLatin1Char('0')); }

QString trimmedNumber(double v, int decimals)
{
    QString s = QString::number(v, 'f', std::max(0, decimals));
    if (s == QStringLiteral("-0") || (s.startsWith('-') && s.toDouble() == 0))
        s.remove(0, 1);
    return s;
}

// Seconds as a clock: "13:05" (h:mm), with seconds "13:05:30"; `hours` may exceed 24.
QString clock(long long totalS, bool withSeconds)
{
    const long long h = totalS / 3600, m = (totalS / 60) % 60, s = totalS % 60;
    return withSeconds ? QStringLiteral("%1:%2:%3").arg(h).arg(padded(m, 2), padded(s, 2))
                       : QStringLiteral("%1:%2").arg(h).arg(padded(m, 2));
}

QDateTime utc(double unixS) { return QDateTime::fromSecsSinceEpoch(static_cast<qint64>(std::floor(unixS)), QTimeZone::utc()); }
} // namespace

SpacedTicker::SpacedTicker(QCPAxis* axis)
    : m_axis(axis)
{
}

double SpacedTicker::axisPixels() const
{
    if (!m_axis || !m_axis->axisRect())
        return 400;
    const QRect r = m_axis->axisRect()->rect();
    const double px = m_axis->orientation() == Qt::Horizontal ? r.width() : r.height();
    return px > 0 ? px : 400;
}

double SpacedTicker::textWidth(const QString& text) const
{
    const QFontMetrics fm(m_axis ? m_axis->tickLabelFont() : QFont());
    if (m_axis && m_axis->orientation() == Qt::Vertical)
        return fm.height();
    // As QCPAxisPainterPrivate measures a label.
    return fm.boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignHCenter, text).width();
}

std::vector<double> SpacedTicker::candidateSteps(const QCPRange& range) const
{
    std::vector<double> steps;
    const double span = range.size();
    const int kmin = int(std::floor(std::log10(span / kMaxTicks))), kmax = int(std::ceil(std::log10(span))) + 1;
    for (int k = kmin; k <= kmax; ++k)
        for (double m : { 1.0, 2.0, 2.5, 5.0 })
            steps.push_back(m * std::pow(10.0, k));
    return steps;
}

QVector<double> SpacedTicker::ticksFor(double step, const QCPRange& range) const
{
    QVector<double> ticks;
    const double first = std::ceil(range.lower / step - 1e-9);
    for (double i = first; i * step <= range.upper + step * 1e-9 && ticks.size() <= kMaxTicks; i += 1)
        ticks.push_back(i * step);
    return ticks;
}

QString SpacedTicker::labelFor(double tick, double step) const
{
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    const int decimals = int(-std::floor(std::log10(step) + 1e-9)) + (std::abs(mantissa - 2.5) < 1e-6 ? 1 : 0);
    return trimmedNumber(tick, decimals);
}

int SpacedTicker::subTicksFor(double step) const
{
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    return std::abs(mantissa - 2.0) < 1e-6 ? 1 : 4;
}

void SpacedTicker::generate(const QCPRange& range, const QLocale&, QChar, int, QVector<double>& ticks,
    QVector<double>* subTicks, QVector<QString>* tickLabels)
{
    ticks.clear();
    if (subTicks)
        subTicks->clear();
    if (tickLabels)
        tickLabels->clear();
    const double span = range.size();
    if (!(span > 0) || !std::isfinite(span))
        return;
    const double px = axisPixels(), gap = textWidth(QStringLiteral("M")) + 2;
    m_spacedFor = px;
    const std::vector<double> steps = candidateSteps(range);
    double chosen = steps.empty() ? span : steps.back();
    QVector<double> chosenTicks;
    QVector<QString> chosenLabels;
    for (double step : steps) {
        const double spacing = minSpan(step) / span * px; // pixels between two ticks, at least
        if (spacing < gap)
            continue;
        QVector<double> t = ticksFor(step, range);
        if (t.size() > kMaxTicks)
            continue;
        QVector<QString> labels = labelsFor(t, step);
        // Every two neighbours: half of each label's width and a gap between their ticks.
        bool fits = t.size() != 1 || textWidth(labels.front()) <= px;
        for (int i = 0; fits && i + 1 < t.size(); ++i)
            fits = (t[i + 1] - t[i]) / span * px >= (textWidth(labels[i]) + textWidth(labels[i + 1])) / 2 + gap;
        if (fits) {
            chosen = step;
            chosenTicks = std::move(t);
            chosenLabels = std::move(labels);
            break;
        }
    }
    if (chosenTicks.isEmpty())
        chosenTicks = ticksFor(chosen, range);
    m_lastStep = chosen;
    ticks = chosenTicks;
    if (subTicks && ticks.size() > 1) {
        const int n = subTicksFor(chosen);
        // One interval before the first and after the last tick, so sub-ticks reach the edges.
        QVector<double> ext;
        ext.push_back(2 * ticks.front() - ticks[1]);
        ext += ticks;
        ext.push_back(2 * ticks.back() - ticks[ticks.size() - 2]);
        for (int i = 0; i + 1 < ext.size(); ++i)
            for (int k = 1; k <= n; ++k) {
                const double v = ext[i] + (ext[i + 1] - ext[i]) * k / (n + 1);
                if (v >= range.lower && v <= range.upper)
                    subTicks->push_back(v);
            }
    }
    if (tickLabels)
        *tickLabels = chosenLabels.size() == ticks.size() ? chosenLabels : labelsFor(ticks, chosen);
}

QVector<QString> SpacedTicker::labelsFor(const QVector<double>& ticks, double step) const
{
    QVector<QString> out;
    out.reserve(ticks.size());
    for (double tick : ticks)
        out.push_back(labelFor(tick, step));
    return out;
}

// ---- time ----------------------------------------------------------------------------------

TimeTicker::TimeTicker(QCPAxis* axis)
    : SpacedTicker(axis)
{
}

void TimeTicker::setOrigin(double originS, double zeroS, std::optional<double> epochUnixS)
{
    m_originS = originS;
    m_zeroS = zeroS;
    m_epoch = epochUnixS;
}

int TimeTicker::startYear() const { return m_epoch ? utc(std::round(*m_epoch + m_zeroS)).date().year() : 0; }

QString TimeTicker::axisTitle() const
{
    // Day and hour labels leave out the year of the first submit (the title gives it).
    return dated() ? QObject::tr("date (UTC, %1)").arg(startYear()) : QObject::tr("time since first submit");
}

double TimeTicker::labelSeconds(double x) const
{
    const double traceS = m_originS + x * 3600;
    return m_epoch ? *m_epoch + traceS : traceS - m_zeroS;
}

double TimeTicker::plotX(double labelS) const
{
    const double traceS = m_epoch ? labelS - *m_epoch : labelS + m_zeroS;
    return (traceS - m_originS) / 3600;
}

// Steps are in plot hours; a negative step is that many calendar months (dated axes only).
std::vector<double> TimeTicker::candidateSteps(const QCPRange&) const
{
    std::vector<double> seconds = { 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600,
        43200, kDayS, 2 * kDayS, 3 * kDayS, 5 * kDayS, 7 * kDayS, 14 * kDayS };
    if (!dated())
        for (double d : { 30, 60, 100, 200, 500, 1000, 2000, 5000, 10000 })
            seconds.push_back(d * kDayS);
    std::vector<double> steps;
    for (double s : seconds)
        steps.push_back(s / 3600);
    if (dated())
        for (double months : { 1, 2, 3, 6, 12, 24, 60, 120, 240 })
            steps.push_back(-months);
    return steps;
}

double TimeTicker::minSpan(double step) const { return step < 0 ? -step * 28 * 24 : step; }

QVector<double> TimeTicker::ticksFor(double step, const QCPRange& range) const
{
    QVector<double> ticks;
    const double a = labelSeconds(range.lower), b = labelSeconds(range.upper);
    if (step < 0) {
        const int months = int(-step);
        QDate d = utc(a).date();
        d = QDate(d.year(), d.month(), 1);
        auto index = [](const QDate& q) { return q.year() * 12 + q.month() - 1; };
        while (index(d) % months != 0)
            d = d.addMonths(1);
        for (;; d = d.addMonths(months)) {
            const double s = double(QDateTime(d, QTime(0, 0), QTimeZone::utc()).toSecsSinceEpoch());
            if (s > b || ticks.size() > kMaxTicks)
                break;
            if (s >= a)
                ticks.push_back(plotX(s));
        }
        return ticks;
    }
    const double stepS = step * 3600;
    // Dated weeks start on Monday (unix day 0 was a Thursday).
    const double shift = dated() && stepS >= 7 * kDayS ? 4 * kDayS : 0;
    for (double i = std::ceil((a - shift) / stepS - 1e-9); i * stepS + shift <= b + stepS * 1e-9 && ticks.size() <= kMaxTicks; i += 1)
        ticks.push_back(plotX(i * stepS + shift));
    return ticks;
}

QString TimeTicker::labelFor(double tick, double step) const
{
    const double t = labelSeconds(tick);
    const double stepS = step * 3600;
    if (dated()) {
        const QDateTime at = utc(std::round(t));
        if (step < 0)
            return at.toString(-step >= 12 ? QStringLiteral("yyyy") : QStringLiteral("yyyy-MM"));
        const bool sameYear = at.date().year() == startYear();
        const QString day = at.toString(sameYear ? QStringLiteral("MM-dd") : QStringLiteral("yyyy-MM-dd"));
        if (stepS >= kDayS)
            return day;
        return day + QLatin1Char(' ') + timeOfDay(t, stepS);
    }
    const QString sign = t < -1e-9 ? QStringLiteral("-") : QString();
    const double u = std::abs(t);
    const long long s = std::llround(u);
    if (stepS >= kDayS)
        return sign + QObject::tr("%1 d").arg(trimmedNumber(u / kDayS, std::fmod(stepS, kDayS) == 0 ? 0 : 1));
    if (stepS >= 3600) {
        if (u < 100 * 3600)
            return sign + QObject::tr("%1 h").arg(s / 3600);
        const long long days = s / 86400, hours = (s % 86400) / 3600;
        return sign + (hours == 0 ? QObject::tr("%1 d").arg(days) : QObject::tr("%1 d %2 h").arg(days).arg(hours));
    }
    if (stepS >= 60) {
        if (u < 3600)
            return sign + QObject::tr("%1 min").arg(s / 60);
        if (u < 100 * 3600)
            return sign + clock(s, false);
        return sign + QObject::tr("%1 d %2").arg(s / 86400).arg(clock(s % 86400, false));
    }
    if (stepS >= 1) {
        if (u < 60)
            return sign + QObject::tr("%1 s").arg(s);
        if (u < 100 * 3600)
            return sign + clock(s, true);
        return sign + QObject::tr("%1 d %2").arg(s / 86400).arg(clock(s % 86400, true));
    }
    return sign + QObject::tr("%1 s").arg(trimmedNumber(u, 1));
}

QString TimeTicker::timeOfDay(double unixS, double stepS)
{
    const QDateTime at = utc(std::round(unixS));
    if (stepS >= 60)
        return at.toString(QStringLiteral("HH:mm"));
    if (stepS >= 1)
        return at.toString(QStringLiteral("HH:mm:ss"));
    return utc(unixS).toString(QStringLiteral("HH:mm:ss")) + trimmedNumber(unixS - std::floor(unixS), 1).mid(1);
}

QVector<QString> TimeTicker::labelsFor(const QVector<double>& ticks, double step) const
{
    if (!dated() && step * 3600 >= kDayS) {
        // Days within the first 100 hours read as hours, as finer steps there do: plots side by
        // side that chose 12 h and 1 d steps then say "24 h" alike.
        double last = 0;
        for (double tick : ticks)
            last = std::max(last, std::abs(labelSeconds(tick)));
        if (last >= 100 * 3600 || std::fmod(step, 1.0) != 0)
            return SpacedTicker::labelsFor(ticks, step);
        QVector<QString> out;
        for (double tick : ticks) {
            const double t = labelSeconds(tick);
            out.push_back((t < -1e-9 ? QStringLiteral("-") : QString()) + QObject::tr("%1 h").arg(std::llround(std::abs(t)) / 3600));
        }
        return out;
    }
    if (!dated() || step < 0 || step * 3600 >= kDayS)
        return SpacedTicker::labelsFor(ticks, step);
    // Times of day; the first tick and the first of each new day say the day too.
    QVector<QString> out;
    out.reserve(ticks.size());
    QDate previous;
    for (double tick : ticks) {
        const double t = labelSeconds(tick);
        const QDate day = utc(std::round(t)).date();
        out.push_back(day == previous ? timeOfDay(t, step * 3600) : labelFor(tick, step));
        previous = day;
    }
    return out;
}

int TimeTicker::subTicksFor(double step) const
{
    if (step < 0)
        return -step >= 12 ? 3 : int(-step) - 1;
    const double s = std::round(step * 3600 * 10) / 10;
    // Sub-ticks on round fractions of the step: 6 h -> 5 (hours), 1 d -> 3 (6 h), 7 d -> 6 (days).
    if (s == 7 * kDayS)
        return 6;
    if (s == 14 * kDayS)
        return 1;
    if (s == 3 * kDayS)
        return 2; // days
    if (s == 5 * kDayS)
        return 4;
    if (s == kDayS || s == 3600 || s == 60 || s == 15 || s == 900)
        return 3;
    if (s == 21600 || s == 30 || s == 1800)
        return 5;
    if (s == 10800 || s == 43200)
        return 2;
    return 1;
}

QString TimeTicker::describe(double x) const
{
    const double t = labelSeconds(x);
    if (dated())
        return utc(std::round(t)).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) + QStringLiteral(" UTC");
    const long long s = std::llround(std::abs(t));
    const QString sign = t < -0.5 ? QStringLiteral("-") : QString();
    if (s < 86400)
        return sign + clock(s, true);
    return sign + QObject::tr("%1 d %2").arg(s / 86400).arg(clock(s % 86400, true));
}

namespace {
// QCustomPlot generates ticks before it lays a plot out (updateLayout: preparation, then margins
// and layout), so the first replot after a resize spaces the labels for the width the axis had
// before: at start, or when a notice above the tabs takes room, that left a timed axis with one
// label ("0 h"), or labels running into each other. Once laid out, a plot whose labels were
// spaced for another length is replotted (queued: that pass measures the length it has).
void respaceAfterLayout(QCustomPlot* plot)
{
    if (!plot || plot->property("schedlabRespace").toBool())
        return;
    plot->setProperty("schedlabRespace", true);
    QObject::connect(plot, &QCustomPlot::afterLayout, plot, [plot] {
        for (QCPAxisRect* rect : plot->axisRects())
            for (QCPAxis* axis : rect->axes()) {
                const auto spaced = axis->ticker().dynamicCast<SpacedTicker>();
                if (spaced && spaced->spacedForPixels() > 0 && std::abs(spaced->spacedForPixels() - spaced->axisPixelsNow()) > 1) {
                    plot->replot(QCustomPlot::rpQueuedReplot);
                    return;
                }
            }
    });
}
} // namespace

QSharedPointer<TimeTicker> installXTicker(QCPAxis* axis, bool time, double originS, double zeroS,
    std::optional<double> epochUnixS)
{
    respaceAfterLayout(axis->parentPlot());
    if (!time) {
        axis->setTicker(QSharedPointer<SpacedTicker>::create(axis));
        return {};
    }
    auto ticker = QSharedPointer<TimeTicker>::create(axis);
    ticker->setOrigin(originS, zeroS, epochUnixS);
    axis->setTicker(ticker);
    return ticker;
}

} // namespace schedlab::views
