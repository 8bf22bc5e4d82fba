//! Dependency-free SVG figures: the iteration histograms of Wellmann, Lillie & Wriggers (2008),
//! Figures 5 and 6, redrawn from a validation run.

use std::fmt::Write;

/// Colours of the curves, one per interval.
const COLOURS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
];

/// A step plot of probabilities per iteration count `0..len` (one curve per named series), with a
/// legend and percent ticks: the layout of the paper's Figures 5 and 6. Deterministic output.
pub fn iteration_histogram_svg(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[(String, Vec<f64>)],
) -> String {
    let (w, h, left, right, top, bottom) = (720.0, 440.0, 70.0, 20.0, 40.0, 50.0);
    let bins = series
        .iter()
        .map(|(_, v)| v.len())
        .max()
        .unwrap_or(1)
        .max(1);
    let y_max = series
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max)
        .max(1e-9);
    // A round top: the next multiple of 10 % (or of 1 % below 10 %).
    let step = if y_max > 0.1 { 0.1 } else { 0.01 };
    let top_value = ((y_max / step).ceil() * step).min(1.0);
    let x = |i: f64| left + (w - left - right) * i / bins as f64;
    let y = |p: f64| top + (h - top - bottom) * (1.0 - p / top_value);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="14">{}</text>"#,
        w / 2.0,
        escape(title)
    );
    // Axes and ticks.
    let _ = writeln!(
        s,
        r#"<path d="M{left},{top} V{} H{}" stroke="black" fill="none"/>"#,
        h - bottom,
        w - right
    );
    let ticks = (top_value / step).round() as usize;
    for k in 0..=ticks {
        let p = k as f64 * step;
        let _ = writeln!(
            s,
            r##"<line x1="{}" y1="{yy:.1}" x2="{}" y2="{yy:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{:.0}%</text>"##,
            left,
            w - right,
            left - 6.0,
            y(p) + 4.0,
            p * 100.0,
            yy = y(p)
        );
    }
    let x_step = if bins > 20 { 5 } else { 1 };
    for i in (0..bins).step_by(x_step) {
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{i}</text>"#,
            x(i as f64 + 0.5),
            h - bottom + 16.0
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
        (left + w - right) / 2.0,
        h - 12.0,
        escape(x_label)
    );
    let _ = writeln!(
        s,
        r#"<text x="16" y="{}" text-anchor="middle" transform="rotate(-90 16 {})">{}</text>"#,
        (top + h - bottom) / 2.0,
        (top + h - bottom) / 2.0,
        escape(y_label)
    );
    // Curves (steps) and legend.
    for (k, (name, values)) in series.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let mut d = String::new();
        for (i, v) in values.iter().enumerate() {
            let v = if v.is_finite() { *v } else { 0.0 };
            let cmd = if i == 0 { 'M' } else { 'L' };
            let _ = write!(
                d,
                "{cmd}{:.1},{:.1} L{:.1},{:.1} ",
                x(i as f64),
                y(v),
                x(i as f64 + 1.0),
                y(v)
            );
        }
        let _ = writeln!(
            s,
            r#"<path d="{d}" stroke="{colour}" fill="none" stroke-width="1.5"/>"#
        );
        let ly = top + 14.0 + 18.0 * k as f64;
        let _ = writeln!(
            s,
            r#"<line x1="{}" y1="{ly}" x2="{}" y2="{ly}" stroke="{colour}" stroke-width="3"/><text x="{}" y="{}">{}</text>"#,
            w - right - 200.0,
            w - right - 175.0,
            w - right - 168.0,
            ly + 4.0,
            escape(name)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Escapes the characters SVG text cannot hold literally.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_is_well_formed_and_names_every_series() {
        let svg = iteration_histogram_svg(
            "Fig. 5 <redrawn>",
            "iterations",
            "probability",
            &[
                ("interval 1".into(), vec![0.88, 0.1, 0.02]),
                ("interval 3".into(), vec![0.5, 0.4, f64::NAN, 0.1]),
            ],
        );
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("interval 1") && svg.contains("interval 3"));
        assert!(svg.contains("&lt;redrawn&gt;"));
        assert!(!svg.contains("NaN"));
    }
}
