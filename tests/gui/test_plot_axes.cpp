// The dashboard's axes on real QCustomPlot widgets: tick labels that never overlap at any width,
// time units by span, UTC dates with an epoch, value axes fitted to the visible data, and the
// notes of empty plots (word-wrapped, reported unwrapped).

#include "tick_labels.h"

#include "axis_tickers.h"
#include "plot_fit.h"

#include <QRegularExpression>
#include <QtTest>

using namespace schedlab;

namespace {
constexpr double kHpc2nEpoch = 1027839845; // SWF UnixStartTime of hpc2n.swf: 2002-07-28 07:04:05 UTC

struct Plot {
    QCustomPlot widget;
    Plot(int width, int height = 260)
    {
        widget.resize(width, height);
        widget.show();
        if (!QTest::qWaitForWindowExposed(&widget))
            qWarning("plot not exposed");
    }
    void draw()
    {
        widget.replot(QCustomPlot::rpImmediateRefresh);
        widget.replot(QCustomPlot::rpImmediateRefresh); // the second uses the final margins
    }
};
} // namespace

class TestPlotAxes : public QObject {
    Q_OBJECT
private slots:
    void timeLabelsNeverOverlap_data()
    {
        QTest::addColumn<double>("hours");
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("dated");
        for (double hours : { 0.05, 1.56, 24.0, 148.0, 1464.0, 3576.0, 20000.0 })
            for (int width : { 150, 300, 640, 1200, 1900 })
                for (bool dated : { false, true })
                    QTest::addRow("%g h at %d px%s", hours, width, dated ? " dated" : "") << hours << width << dated;
    }
    void timeLabelsNeverOverlap()
    {
        QFETCH(double, hours);
        QFETCH(int, width);
        QFETCH(bool, dated);
        Plot p(width);
        views::installXTicker(p.widget.xAxis, true, 0, 0, dated ? std::optional<double>(kHpc2nEpoch) : std::nullopt);
        p.widget.xAxis->setRange(0, hours);
        p.draw();
        const QString overlap = test::tickLabelOverlap(p.widget.xAxis);
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
        QVERIFY2(test::tickLabelBoxes(p.widget.xAxis).size() >= 2 || width < 300,
            qPrintable(p.widget.xAxis->tickVectorLabels().join(" | ")));
    }

    // QCustomPlot spaces ticks before it lays out, so the one replot a resize brings spaces them for
    // the old width; the axis replots itself once laid out (a project's notice taking room left
    // timed axes with one label, "0 h", or overlapping ones).
    void labelsAreRespacedAfterAResize_data()
    {
        QTest::addColumn<int>("from");
        QTest::addColumn<int>("to");
        QTest::newRow("narrower: labels would overlap") << 1400 << 260;
        QTest::newRow("wider: one label would be left") << 180 << 1200;
    }
    void labelsAreRespacedAfterAResize()
    {
        QFETCH(int, from);
        QFETCH(int, to);
        Plot p(from);
        const auto ticker = views::installXTicker(p.widget.xAxis, true, 0, 0, std::nullopt);
        p.widget.xAxis->setRange(0, 39);
        p.draw();
        // Resized while hidden (the dashboard's plots before their first runs): shown, it replots
        // once, with the ticks spaced for `from`.
        p.widget.hide();
        p.widget.resize(to, 260);
        p.widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p.widget));
        QTRY_COMPARE(ticker->spacedForPixels(), ticker->axisPixelsNow());
        const QString overlap = test::tickLabelOverlap(p.widget.xAxis);
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
        QVERIFY2(test::tickLabelBoxes(p.widget.xAxis).size() >= 2, qPrintable(p.widget.xAxis->tickVectorLabels().join(" | ")));
    }

    void overlapCheckSeesCrowdedLabels()
    {
        // QCustomPlot's own ticker asked for 40 ticks on 200 px: the labels must collide.
        Plot p(200);
        p.widget.xAxis->ticker()->setTickCount(40);
        p.widget.xAxis->setRange(0, 3500);
        p.draw();
        QVERIFY(!test::tickLabelOverlap(p.widget.xAxis).isEmpty());
    }

    void timeUnitsFollowTheSpan()
    {
        Plot p(640);
        views::installXTicker(p.widget.xAxis, true, 0, 0, std::nullopt);
        auto labels = [&](double hours) {
            p.widget.xAxis->setRange(0, hours);
            p.draw();
            return p.widget.xAxis->tickVectorLabels();
        };
        QCOMPARE(labels(0.05).first(), QStringLiteral("0 s")); // 3 minutes
        QVERIFY(labels(0.05).contains(QStringLiteral("30 s")));
        const QStringList ninetyMin = labels(1.5);
        QCOMPARE(ninetyMin.first(), QStringLiteral("0 min"));
        QVERIFY2(ninetyMin.contains(QStringLiteral("30 min")) && ninetyMin.contains(QStringLiteral("1:00")), qPrintable(ninetyMin.join(" | ")));
        const QStringList day = labels(24);
        QCOMPARE(day.first(), QStringLiteral("0 h"));
        QVERIFY2(day.contains(QStringLiteral("12 h")), qPrintable(day.join(" | ")));
        // Day steps within 100 hours still read in hours (a narrow plot beside 12 h steps).
        Plot narrow(130);
        views::installXTicker(narrow.widget.xAxis, true, 0, 0, std::nullopt);
        narrow.widget.xAxis->setRange(0, 40);
        narrow.draw();
        QCOMPARE(static_cast<views::TimeTicker*>(narrow.widget.xAxis->ticker().data())->lastStep(), 24.0); // a day
        for (const QString& l : narrow.widget.xAxis->tickVectorLabels())
            QVERIFY2(l.endsWith(" h"), qPrintable(narrow.widget.xAxis->tickVectorLabels().join(" | ")));
        // 149 days: whole days, no hour counts in the thousands.
        const QStringList openb = labels(3576);
        QCOMPARE(openb.first(), QStringLiteral("0 d"));
        for (const QString& l : openb)
            QVERIFY2(QRegularExpression(QStringLiteral("^\\d+ d$")).match(l).hasMatch(), qPrintable(l));
        // Labels count from the first submit (zero), not from the plot's origin.
        // Plot x 0 is trace second 7200, one hour after the first submit: x hours read x + 1 h.
        views::installXTicker(p.widget.xAxis, true, 7200, 3600, std::nullopt);
        const QStringList shifted = labels(24);
        const QVector<double> at = p.widget.xAxis->tickVector();
        QCOMPARE(shifted.size(), at.size());
        for (int i = 0; i < at.size(); ++i)
            QCOMPARE(shifted[i], QStringLiteral("%1 h").arg(at[i] + 1));
    }

    void datesWhenTheTraceHasAnEpoch()
    {
        Plot p(640);
        auto ticker = views::installXTicker(p.widget.xAxis, true, 0, 0, kHpc2nEpoch);
        QVERIFY(ticker->dated());
        QCOMPARE(ticker->axisTitle(), QStringLiteral("date (UTC, 2002)"));
        QCOMPARE(ticker->describe(0), QStringLiteral("2002-07-28 07:04:05 UTC"));
        QCOMPARE(ticker->describe(17), QStringLiteral("2002-07-29 00:04:05 UTC"));
        p.widget.xAxis->setRange(0, 1464); // 61 days
        p.draw();
        const QStringList labels = p.widget.xAxis->tickVectorLabels();
        QVERIFY(labels.size() >= 3);
        for (const QString& l : labels)
            QVERIFY2(QRegularExpression(QStringLiteral("^(\\d\\d-\\d\\d|2002-\\d\\d)$")).match(l).hasMatch(), qPrintable(l));
        // Within a day: day and time; the first tick at the next whole step after 07:04:05.
        p.widget.xAxis->setRange(0, 12);
        p.draw();
        const QStringList hours = p.widget.xAxis->tickVectorLabels();
        // The first tick names the day, the others only the time until the day changes.
        QVERIFY2(QRegularExpression(QStringLiteral("^07-28 \\d\\d:\\d\\d$")).match(hours.first()).hasMatch(), qPrintable(hours.join(" | ")));
        for (int i = 1; i < hours.size(); ++i)
            QVERIFY2(QRegularExpression(QStringLiteral("^\\d\\d:\\d\\d$")).match(hours[i]).hasMatch(), qPrintable(hours.join(" | ")));
        p.widget.xAxis->setRange(0, 30); // past midnight: the new day is named once
        p.draw();
        const QStringList overnight = p.widget.xAxis->tickVectorLabels();
        QCOMPARE(overnight.filter(QStringLiteral("07-29 ")).size(), 1);
        // Across a new year the later year is spelt out.
        const double dec20 = 1040342400; // 2002-12-20 00:00 UTC
        ticker = views::installXTicker(p.widget.xAxis, true, 0, 0, dec20);
        p.widget.xAxis->setRange(0, 30 * 24);
        p.draw();
        const QStringList winter = p.widget.xAxis->tickVectorLabels();
        QVERIFY2(winter.first().startsWith(QStringLiteral("12-")), qPrintable(winter.join(" | ")));
        QVERIFY2(winter.last().startsWith(QStringLiteral("2003-01-")), qPrintable(winter.join(" | ")));
        const QString overlap = test::tickLabelOverlap(p.widget.xAxis);
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
    }

    void numberLabelsNeverOverlap()
    {
        for (int width : { 120, 200, 400, 800, 1600 }) {
            Plot p(width);
            views::installXTicker(p.widget.xAxis, false, 0, 0, std::nullopt);
            p.widget.xAxis->setRange(0, 130);
            p.draw();
            const QString overlap = test::tickLabelOverlap(p.widget.xAxis);
            QVERIFY2(overlap.isEmpty(), qPrintable(QStringLiteral("%1 px: %2").arg(width).arg(overlap)));
            QCOMPARE(p.widget.xAxis->tickVectorLabels().first(), QStringLiteral("0"));
        }
    }

    void valueAxisFitsTheVisibleData()
    {
        Plot p(400);
        QCPGraph* g = p.widget.addGraph();
        g->setData({ 0, 1, 2, 3, 4 }, { 0, 0, 0, 0, 50 });
        p.widget.xAxis->setRange(0, 3);
        QCOMPARE(views::fitValueAxis(&p.widget), views::VisibleData::AllZero);
        QCOMPARE(p.widget.yAxis->range().lower, 0.0);
        QCOMPARE(p.widget.yAxis->range().upper, 1.0);
        p.widget.xAxis->setRange(0, 4);
        QCOMPARE(views::fitValueAxis(&p.widget), views::VisibleData::Values);
        QCOMPARE(p.widget.yAxis->range().lower, 0.0);
        QCOMPARE(p.widget.yAxis->range().upper, 55.0);
        g->setData({ 0, 1 }, { -10, 10 }); // below zero: from the minimum, padded both ways
        p.widget.xAxis->setRange(0, 1);
        QCOMPARE(views::fitValueAxis(&p.widget), views::VisibleData::Values);
        QCOMPARE(p.widget.yAxis->range().lower, -12.0);
        QCOMPARE(p.widget.yAxis->range().upper, 12.0);
        p.widget.xAxis->setRange(5, 6);
        QCOMPARE(views::fitValueAxis(&p.widget), views::VisibleData::None);
        QCOMPARE(p.widget.yAxis->range().upper, 1.0);
    }

    void notesAreWrappedToThePlot()
    {
        Plot p(220);
        const QString text = QStringLiteral("no job waited in this window");
        views::setPlotNote(&p.widget, text);
        p.draw();
        QCOMPARE(views::plotNote(&p.widget), text);
        QCPItemText* note = nullptr;
        for (int i = 0; i < p.widget.itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(p.widget.item(i)))
                note = t;
        QVERIFY(note);
        QVERIFY2(note->text().contains('\n'), qPrintable(note->text()));
        const QFontMetrics fm(note->font());
        for (const QString& line : note->text().split('\n'))
            QVERIFY2(fm.horizontalAdvance(line) <= p.widget.axisRect()->width(), qPrintable(line));
        p.widget.resize(900, 260); // wide enough: one line again
        QTest::qWait(20);
        p.draw();
        QCOMPARE(note->text(), text);
        views::setPlotNote(&p.widget, {});
        QVERIFY(views::plotNote(&p.widget).isEmpty());
    }
};

QTEST_MAIN(TestPlotAxes)
#include "test_plot_axes.moc"
