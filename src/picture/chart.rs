//! Charts as inline SVG for the report (`gamerec report`): bars with 95 %
//! intervals, bars of counts, a histogram and lines over time. Each is a
//! `<figure class="chart" data-chart="ID">` holding the SVG (`role="img"`,
//! its title the chart's) and, beside it, a table of the same numbers for
//! screen readers and for copying. Axes are labelled; the same numbers
//! give the same bytes.

use super::svg::{decimals, esc};
use std::fmt::Write as _;

const WIDTH: f64 = 560.0;
const LEFT: f64 = 150.0;
const RIGHT: f64 = 20.0;
const ROW: f64 = 22.0;
const TOP: f64 = 12.0;
const AXIS: f64 = 42.0;
/// The first side's colour, the second's, a draw's, and lines'.
pub(crate) const COLOURS: [&str; 4] = ["#b71c1c", "#455a64", "#c8b273", "#1565c0"];

/// A number as the charts write it: at most two decimals, no `-0`.
fn num(x: f64) -> String {
    decimals(x, 2)
}

/// About `count` round steps between `lo` and `hi`.
fn ticks(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    let span = (hi - lo).max(1e-9);
    let raw = span / count.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let mut out = Vec::new();
    let mut t = (lo / step).ceil() * step;
    while t <= hi + step * 1e-9 {
        out.push(t);
        t += step;
    }
    out
}

/// The figure around a chart: its SVG, then its table.
fn figure(id: &str, title: &str, svg: &str, head: &[&str], rows: &[Vec<String>]) -> String {
    let mut s = format!(
        "<figure class=\"chart\" data-chart=\"{}\">\n<figcaption>{}</figcaption>\n\
         <div class=\"pair\">\n{svg}\n<div class=\"data\"><table class=\"data\"><caption>{}</caption>\n<tr>",
        esc(id),
        esc(title),
        esc(title)
    );
    for h in head {
        let _ = write!(s, "<th scope=\"col\">{}</th>", esc(h));
    }
    s.push_str("</tr>\n");
    for row in rows {
        s.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            match i {
                0 => {
                    let _ = write!(s, "<th scope=\"row\">{}</th>", esc(cell));
                }
                _ => {
                    let _ = write!(s, "<td>{}</td>", esc(cell));
                }
            }
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</table></div>\n</div>\n</figure>\n");
    s
}

fn open_svg(title: &str, height: f64) -> String {
    format!(
        "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 {WIDTH} {h}\" width=\"{WIDTH}\" \
         height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\"><title>{}</title>\n",
        esc(title),
        h = num(height)
    )
}

/// A horizontal axis from `lo` to `hi` at `y`, its ticks formatted by
/// `label`, and its name below.
fn x_axis(s: &mut String, lo: f64, hi: f64, y: f64, name: &str, label: &dyn Fn(f64) -> String) {
    x_axis_at(s, (lo, hi), &ticks(lo, hi, 5), y, name, label)
}

/// [`x_axis`] with the ticks given.
fn x_axis_at(
    s: &mut String,
    (lo, hi): (f64, f64),
    at: &[f64],
    y: f64,
    name: &str,
    label: &dyn Fn(f64) -> String,
) {
    let x = |v: f64| LEFT + (v - lo) / (hi - lo).max(1e-9) * (WIDTH - LEFT - RIGHT);
    let _ = writeln!(
        s,
        "<line class=\"axis\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#555\"/>",
        num(LEFT),
        num(y),
        num(WIDTH - RIGHT),
        num(y)
    );
    for &t in at {
        let _ = writeln!(
            s,
            "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"#555\"/>\
             <text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            num(y),
            num(y + 4.0),
            num(y + 16.0),
            esc(&label(t)),
            x = num(x(t))
        );
    }
    let _ = writeln!(
        s,
        "<text class=\"axis-name\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
        num(LEFT + (WIDTH - LEFT - RIGHT) / 2.0),
        num(y + 34.0),
        esc(name)
    );
}

fn percent(v: f64) -> String {
    format!("{}%", num(v * 100.0))
}

/// A bar with its 95 % interval: a share (0 to 1) of `n` games.
#[derive(Clone, Debug, PartialEq)]
pub struct Share {
    pub label: String,
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
    pub n: u64,
}

/// Horizontal bars of shares with their intervals as whiskers, a line at
/// one half.
pub fn shares(id: &str, title: &str, axis: &str, items: &[Share]) -> String {
    let height = TOP + ROW * items.len() as f64 + AXIS;
    let mut s = open_svg(title, height);
    let x = |v: f64| LEFT + v * (WIDTH - LEFT - RIGHT);
    for (i, it) in items.iter().enumerate() {
        let y = TOP + ROW * i as f64;
        let _ = writeln!(
            s,
            "<g class=\"bar\"><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\
             <rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\
             <line class=\"interval\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#111\"/></g>",
            num(LEFT - 6.0),
            num(y + 15.0),
            esc(&it.label),
            num(LEFT),
            num(y + 4.0),
            num(x(it.value) - LEFT),
            num(ROW - 8.0),
            COLOURS[3],
            num(x(it.lo)),
            num(y + ROW / 2.0),
            num(x(it.hi)),
            num(y + ROW / 2.0)
        );
    }
    let bottom = TOP + ROW * items.len() as f64;
    let _ = writeln!(
        s,
        "<line class=\"half\" x1=\"{h}\" y1=\"{}\" x2=\"{h}\" y2=\"{}\" stroke=\"#888\" \
         stroke-dasharray=\"4 3\"/>",
        num(TOP),
        num(bottom),
        h = num(x(0.5))
    );
    x_axis(&mut s, 0.0, 1.0, bottom, axis, &percent);
    s.push_str("</svg>");
    let rows: Vec<Vec<String>> = items
        .iter()
        .map(|it| {
            vec![
                it.label.clone(),
                it.n.to_string(),
                percent(it.value),
                format!("{}–{}", percent(it.lo), percent(it.hi)),
            ]
        })
        .collect();
    figure(id, title, &s, &["", "games", axis, "95% interval"], &rows)
}

/// Stacked horizontal bars: per row, its parts' counts (in `parts`'
/// colours), shown as shares of the row's total.
pub(crate) fn stacked(
    id: &str,
    title: &str,
    parts: &[&str],
    rows: &[(String, Vec<u64>)],
) -> String {
    let height = TOP + ROW * rows.len() as f64 + AXIS + 18.0;
    let mut s = open_svg(title, height);
    for (i, (label, counts)) in rows.iter().enumerate() {
        let y = TOP + ROW * i as f64;
        let total: u64 = counts.iter().sum();
        let _ = write!(
            s,
            "<g class=\"bar\"><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            num(LEFT - 6.0),
            num(y + 15.0),
            esc(label)
        );
        let mut at = 0.0;
        for (j, &c) in counts.iter().enumerate() {
            let w = match total {
                0 => 0.0,
                t => c as f64 / t as f64 * (WIDTH - LEFT - RIGHT),
            };
            let _ = write!(
                s,
                "<rect class=\"part\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                num(LEFT + at),
                num(y + 4.0),
                num(w),
                num(ROW - 8.0),
                [COLOURS[0], COLOURS[2], COLOURS[1]][j % 3]
            );
            at += w;
        }
        s.push_str("</g>\n");
    }
    let bottom = TOP + ROW * rows.len() as f64;
    x_axis(&mut s, 0.0, 1.0, bottom, "share of games", &percent);
    let mut x = LEFT;
    for (j, p) in parts.iter().enumerate() {
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/>\
             <text x=\"{}\" y=\"{}\">{}</text>",
            num(x),
            num(height - 12.0),
            [COLOURS[0], COLOURS[2], COLOURS[1]][j % 3],
            num(x + 14.0),
            num(height - 3.0),
            esc(p)
        );
        x += 24.0 + 7.0 * p.chars().count() as f64;
    }
    s.push_str("</svg>");
    let mut head = vec![""];
    head.extend_from_slice(parts);
    head.push("games");
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|(label, counts)| {
            let mut r = vec![label.clone()];
            r.extend(counts.iter().map(u64::to_string));
            r.push(counts.iter().sum::<u64>().to_string());
            r
        })
        .collect();
    figure(id, title, &s, &head, &table)
}

/// Horizontal bars of counts.
pub fn counts(id: &str, title: &str, axis: &str, items: &[(String, u64)]) -> String {
    let height = TOP + ROW * items.len() as f64 + AXIS;
    let mut s = open_svg(title, height);
    let top = items.iter().map(|i| i.1).max().unwrap_or(1).max(1) as f64;
    let hi = *ticks(0.0, top, 5).last().unwrap_or(&top);
    let hi = hi.max(top);
    for (i, (label, n)) in items.iter().enumerate() {
        let y = TOP + ROW * i as f64;
        let _ = writeln!(
            s,
            "<g class=\"bar\"><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\
             <rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/></g>",
            num(LEFT - 6.0),
            num(y + 15.0),
            esc(label),
            num(LEFT),
            num(y + 4.0),
            num(*n as f64 / hi * (WIDTH - LEFT - RIGHT)),
            num(ROW - 8.0),
            COLOURS[3]
        );
    }
    let bottom = TOP + ROW * items.len() as f64;
    x_axis(&mut s, 0.0, hi, bottom, axis, &num);
    s.push_str("</svg>");
    let rows: Vec<Vec<String>> = (items.iter())
        .map(|(l, n)| vec![l.clone(), n.to_string()])
        .collect();
    figure(id, title, &s, &["", axis], &rows)
}

/// A vertical axis from `lo` to `hi` between `top` and `bottom`, named.
fn y_axis(s: &mut String, lo: f64, hi: f64, top: f64, bottom: f64, name: &str) {
    let y = |v: f64| bottom - (v - lo) / (hi - lo).max(1e-9) * (bottom - top);
    let _ = writeln!(
        s,
        "<line class=\"axis\" x1=\"{l}\" y1=\"{}\" x2=\"{l}\" y2=\"{}\" stroke=\"#555\"/>",
        num(top),
        num(bottom),
        l = num(LEFT)
    );
    for t in ticks(lo, hi, 4) {
        let _ = writeln!(
            s,
            "<line x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#ddd\"/>\
             <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            num(LEFT),
            num(WIDTH - RIGHT),
            num(LEFT - 6.0),
            num(y(t) + 4.0),
            num(t),
            y = num(y(t))
        );
    }
    let _ = writeln!(
        s,
        "<text class=\"axis-name\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" \
         transform=\"rotate(-90 {} {})\">{}</text>",
        num(LEFT - 56.0),
        num((top + bottom) / 2.0),
        num(LEFT - 56.0),
        num((top + bottom) / 2.0),
        esc(name)
    );
}

const PLOT: f64 = 200.0;

/// A histogram: bins `[lo, hi)` with their counts.
pub(crate) fn histogram(id: &str, title: &str, axis: &str, bins: &[(u64, u64, u64)]) -> String {
    let height = TOP + PLOT + AXIS;
    let mut s = open_svg(title, height);
    let (lo, hi) = match (bins.first(), bins.last()) {
        (Some(f), Some(l)) => (f.0 as f64, l.1 as f64),
        _ => (0.0, 1.0),
    };
    let top = bins.iter().map(|b| b.2).max().unwrap_or(1).max(1) as f64;
    let ymax = ticks(0.0, top, 4).last().copied().unwrap_or(top).max(top);
    let bottom = TOP + PLOT;
    y_axis(&mut s, 0.0, ymax, TOP, bottom, "games");
    let x = |v: f64| LEFT + (v - lo) / (hi - lo).max(1e-9) * (WIDTH - LEFT - RIGHT);
    for &(a, b, n) in bins {
        let h = n as f64 / ymax * PLOT;
        let _ = writeln!(
            s,
            "<rect class=\"bin\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" \
             stroke=\"#fff\"/>",
            num(x(a as f64)),
            num(bottom - h),
            num(x(b as f64) - x(a as f64)),
            num(h),
            COLOURS[3]
        );
    }
    x_axis(&mut s, lo, hi, bottom, axis, &num);
    s.push_str("</svg>");
    let rows: Vec<Vec<String>> = bins
        .iter()
        .map(|&(a, b, n)| vec![format!("{a}–{}", b - 1), n.to_string()])
        .collect();
    figure(id, title, &s, &[axis, "games"], &rows)
}

/// A named series of points, drawn in `colour`.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub colour: &'static str,
    pub points: Vec<(f64, f64)>,
}

/// The points' x and y ranges, y padded; unit ranges without a point.
fn bounds(series: &[Series]) -> ((f64, f64), (f64, f64)) {
    let all = || series.iter().flat_map(|s| s.points.iter());
    let range = |pick: fn(&(f64, f64)) -> f64| {
        all()
            .map(pick)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            })
    };
    let ((x0, x1), (y0, y1)) = (range(|p| p.0), range(|p| p.1));
    if !x0.is_finite() {
        return ((0.0, 1.0), (0.0, 1.0));
    }
    let pad = ((y1 - y0) * 0.08).max(1.0);
    ((x0, x1.max(x0 + 1.0)), (y0 - pad, y1 + pad))
}

/// The series' names in their colours, along the bottom.
fn legend(s: &mut String, series: &[Series], height: f64) {
    let mut lx = LEFT;
    for line in series {
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"3\" fill=\"{}\"/>\
             <text x=\"{}\" y=\"{}\">{}</text>",
            num(lx),
            num(height - 8.0),
            line.colour,
            num(lx + 14.0),
            num(height - 3.0),
            esc(&line.name)
        );
        lx += 24.0 + 7.0 * line.name.chars().count() as f64;
    }
}

/// Lines over a shared horizontal axis; `labels` names the x values in
/// the table (dates, game numbers).
pub fn lines(
    id: &str,
    title: &str,
    (x_name, y_name): (&str, &str),
    series: &[Series],
    labels: &dyn Fn(f64) -> String,
) -> String {
    let height = TOP + PLOT + AXIS + 18.0;
    let mut s = open_svg(title, height);
    let ((x0, x1), (y0, y1)) = bounds(series);
    let bottom = TOP + PLOT;
    y_axis(&mut s, y0, y1, TOP, bottom, y_name);
    let x = |v: f64| LEFT + (v - x0) / (x1 - x0) * (WIDTH - LEFT - RIGHT);
    let y = |v: f64| bottom - (v - y0) / (y1 - y0) * PLOT;
    for line in series {
        let points: Vec<String> = (line.points.iter())
            .map(|&(a, b)| format!("{},{}", num(x(a)), num(y(b))))
            .collect();
        let _ = writeln!(
            s,
            "<polyline class=\"series\" data-series=\"{}\" points=\"{}\" fill=\"none\" \
             stroke=\"{}\" stroke-width=\"2\"/>",
            esc(&line.name),
            points.join(" "),
            line.colour
        );
    }
    // Ticks at the points' own x values when they are few (months, game
    // numbers), else at round whole numbers among them.
    let mut xs: Vec<f64> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let at: Vec<f64> = match xs.len() {
        0..=8 => xs.clone(),
        _ => {
            let mut t: Vec<f64> = ticks(x0, x1, 5).into_iter().map(f64::round).collect();
            t.dedup();
            t
        }
    };
    x_axis_at(&mut s, (x0, x1), &at, bottom, x_name, labels);
    legend(&mut s, series, height);
    s.push_str("</svg>");
    // The table: a row per x, a column per series.
    let rows: Vec<Vec<String>> = xs
        .iter()
        .map(|&xv| {
            let mut r = vec![labels(xv)];
            for line in series {
                let at = line.points.iter().find(|p| p.0 == xv);
                r.push(at.map_or(String::new(), |p| num(p.1)));
            }
            r
        })
        .collect();
    let mut head = vec![x_name];
    head.extend(series.iter().map(|s| s.name.as_str()));
    figure(id, title, &s, &head, &rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        let t = |lo, hi, n| ticks(lo, hi, n).into_iter().map(num).collect::<Vec<_>>();
        assert_eq!(t(0.0, 1.0, 5), ["0", "0.2", "0.4", "0.6", "0.8", "1"]);
        assert_eq!(t(0.0, 100.0, 4), ["0", "25", "50", "75", "100"]);
        assert_eq!(t(3.0, 7.0, 4), ["3", "4", "5", "6", "7"]);
        assert_eq!(t(1480.0, 1530.0, 4), ["1480", "1500", "1520"]);
    }

    #[test]
    fn a_chart_is_an_svg_with_a_title_and_a_table_of_its_numbers() {
        let share = Share {
            label: "Red <first>".into(),
            value: 0.55,
            lo: 0.45,
            hi: 0.65,
            n: 100,
        };
        let html = shares("results", "Score", "score", &[share]);
        assert!(html.starts_with("<figure class=\"chart\" data-chart=\"results\">"));
        assert!(html.contains("<svg class=\"chart\" role=\"img\""));
        assert!(html.contains("<title>Score</title>"));
        assert!(html.contains("<th scope=\"row\">Red &lt;first&gt;</th><td>100</td><td>55%</td>"));
        assert!(html.contains("<td>45%–65%</td>"));
        // The SVG is well-formed XML, and so is the whole figure.
        let svg = html.split("<div class=\"pair\">\n").nth(1).unwrap();
        let svg = svg.split("<div class=\"data\">").next().unwrap();
        let doc = roxmltree::Document::parse(svg.trim()).unwrap();
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        assert!(roxmltree::Document::parse(&html).is_ok());
    }
}
