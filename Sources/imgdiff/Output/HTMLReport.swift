#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `index.html`: a self-contained static page for reviewing a batch (inline CSS and script, no
/// network). The report's JSON is embedded in the page; cards are built 40 at a time as the
/// reader scrolls, and images load lazily, so thousands of pairs stay fast.
///
/// The URL fragment selects the filter and the default view, e.g. `index.html#filter=new` or
/// `#filter=failed&view=slider`; filters are `all`, `failed` (changed or error), `new`,
/// `deleted`, `passed`; views are `side`, `blend`, `mask`, `slider`, `onion`.
enum HTMLReport {
    static func render(_ report: BatchReport) throws -> String {
        // "<" only occurs inside JSON strings, where \u003c reads the same: no file name can
        // end the script element early.
        let data = replacingScalars(String(decoding: try report.json(pretty: false), as: UTF8.self)) { $0 == "<" ? "\\u003c" : nil }
        let title = escape("imgdiff: \(report.newDirectory) vs \(report.referenceDirectory)")
        let parts = template.components(separatedBy: "{{DATA}}")
        return parts[0].replacing("{{TITLE}}", with: title) + data + parts[1...].joined()
    }

    static func escape(_ text: String) -> String {
        replacingScalars(text) { scalar in
            switch scalar {
            case "&": return "&amp;"
            case "<": return "&lt;"
            case ">": return "&gt;"
            case "\"": return "&quot;"
            default: return nil
            }
        }
    }

    /// `text` with each Unicode scalar that `replacement` gives text for replaced by it. Scalar
    /// by scalar, not `Character` by `Character`: a prepended or combining mark makes one
    /// `Character` of a "<" and its neighbour, which `Character`-wise matching would pass over
    /// and the browser would still read as "<".
    static func replacingScalars(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) {
                result.append(contentsOf: replaced.unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    static let template = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{TITLE}}</title>
        <style>
        :root {
          --bg: #f4f5f7; --card: #fff; --text: #1d2127; --muted: #68707c; --line: #dfe3e8;
          --changed: #d92d20; --error: #7a1c14; --new: #1f6feb; --deleted: #9a6700; --passed: #1a7f37;
          --box: #ff00d4;
        }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
               background: var(--bg); color: var(--text); }
        header { position: sticky; top: 0; z-index: 5; background: var(--card); border-bottom: 1px solid var(--line);
                 padding: 12px 24px; display: flex; flex-wrap: wrap; align-items: center; gap: 8px 24px; }
        h1 { font-size: 17px; margin: 0; }
        .dirs { color: var(--muted); margin: 0; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
        nav { display: flex; gap: 6px; flex-wrap: wrap; margin-left: auto; }
        nav a { text-decoration: none; color: var(--text); border: 1px solid var(--line); border-radius: 999px;
                padding: 3px 12px; background: var(--bg); }
        nav a[aria-current="true"] { background: var(--text); color: #fff; border-color: var(--text); }
        nav .count { font-variant-numeric: tabular-nums; opacity: .75; margin-left: 4px; }
        #shown { color: var(--muted); margin: 12px 24px 0; }
        main { padding: 12px 24px 24px; display: flex; flex-direction: column; gap: 16px; }
        .pair { background: var(--card); border: 1px solid var(--line); border-left: 4px solid var(--line);
                border-radius: 8px; padding: 12px 16px; }
        .pair[data-status="changed"] { border-left-color: var(--changed); }
        .pair[data-status="error"] { border-left-color: var(--error); }
        .pair[data-status="new"] { border-left-color: var(--new); }
        .pair[data-status="deleted"] { border-left-color: var(--deleted); }
        .pair[data-status="passed"] { border-left-color: var(--passed); }
        .pair-header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 12px; }
        .badge { text-transform: uppercase; font-size: 11px; font-weight: 700; letter-spacing: .04em; color: #fff;
                 border-radius: 4px; padding: 1px 6px; }
        .badge.changed { background: var(--changed); } .badge.error { background: var(--error); }
        .badge.new { background: var(--new); } .badge.deleted { background: var(--deleted); }
        .badge.passed { background: var(--passed); }
        .path { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-weight: 600; }
        .numbers { display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 6px 0 8px; padding: 0; list-style: none;
                   color: var(--muted); font-variant-numeric: tabular-nums; }
        .numbers b { color: var(--text); font-weight: 600; }
        .message { white-space: pre-wrap; color: var(--error); font-family: ui-monospace, monospace; font-size: 12px; margin: 4px 0; }
        .tabs { display: flex; gap: 2px; border-bottom: 1px solid var(--line); margin-bottom: 10px; }
        .tabs button { font: inherit; border: 0; background: none; padding: 5px 12px; cursor: pointer; color: var(--muted);
                       border-bottom: 2px solid transparent; margin-bottom: -1px; }
        .tabs button[aria-selected="true"] { color: var(--text); border-bottom-color: var(--text); font-weight: 600; }
        .stage { display: flex; gap: 16px; flex-wrap: wrap; align-items: flex-start; }
        figure { margin: 0; flex: 1 1 0; min-width: 200px; max-width: 520px; }
        figcaption { color: var(--muted); font-size: 12px; margin-bottom: 4px; }
        .frame { position: relative; line-height: 0; border: 1px solid var(--line);
                 background: repeating-conic-gradient(#e8eaee 0% 25%, #fff 0% 50%) 0 0 / 16px 16px; }
        .frame img { width: 100%; height: auto; display: block; }
        .frame img.pixelated { image-rendering: pixelated; }
        .frame .over { position: absolute; left: 0; top: 0; }
        .frame.canvas img { position: absolute; left: 0; top: 0; }
        .frame .layer { position: absolute; inset: 0; }
        .frame .under { opacity: .3; filter: grayscale(1); }
        .box { position: absolute; outline: 2px dashed var(--box); outline-offset: 1px; pointer-events: none; }
        .divider { position: absolute; top: 0; bottom: 0; width: 2px; margin-left: -1px; background: var(--box); pointer-events: none; }
        .control { display: flex; align-items: center; gap: 8px; margin-top: 8px; color: var(--muted); font-size: 12px; line-height: 1.4; }
        .control input { flex: 1; }
        .empty { color: var(--muted); padding: 24px; text-align: center; }
        </style>
        </head>
        <body>
        <header>
          <h1>imgdiff report</h1>
          <p class="dirs" id="dirs"></p>
          <nav id="filters" aria-label="Filter pairs"></nav>
        </header>
        <p id="shown"></p>
        <main id="pairs"></main>
        <div id="more" aria-hidden="true"></div>
        <script type="application/json" id="report-data">{{DATA}}</script>
        <script>
        (function () {
          "use strict";
          var report = JSON.parse(document.getElementById("report-data").textContent);
          var PAGE = 40;
          var FILTERS = [
            ["all", "All", function () { return true; }],
            ["failed", "Failed", function (p) { return p.status === "changed" || p.status === "error"; }],
            ["new", "New", function (p) { return p.status === "new"; }],
            ["deleted", "Deleted", function (p) { return p.status === "deleted"; }],
            ["passed", "Passed", function (p) { return p.status === "passed"; }]
          ];
          var VIEWS = { side: "Side by side", blend: "Blend", mask: "Mask", slider: "Slider", onion: "Onion skin" };
          var list = document.getElementById("pairs");
          var sentinel = document.getElementById("more");
          var observer = null;
          var state = { filter: "all", view: "side", matching: [], shown: 0 };

          function el(tag, attributes, children) {
            var node = document.createElement(tag);
            Object.keys(attributes || {}).forEach(function (name) {
              var value = attributes[name];
              if (value === undefined || value === null || value === false) return;
              if (name === "text") node.textContent = value; else node.setAttribute(name, value);
            });
            (children || []).forEach(function (child) { if (child) node.appendChild(child); });
            return node;
          }
          function integer(n) { return n.toLocaleString("en-US"); }
          function percent(ratio) {
            var value = ratio * 100;
            return (value === 0 ? "0" : value < 0.01 ? "<0.01" : value.toFixed(value < 10 ? 2 : 1)) + "%";
          }
          function deltaEName(formula) { return { cie76: "ΔE76", cie94: "ΔE94", ciede2000: "ΔE2000" }[formula] || "ΔE"; }

          function parseHash() {
            var params = new URLSearchParams(location.hash.slice(1));
            var filter = params.get("filter"), view = params.get("view");
            state.filter = FILTERS.some(function (f) { return f[0] === filter; }) ? filter : "all";
            state.view = VIEWS[view] ? view : "side";
          }

          // A relative path as a URL: each segment percent-encoded, so that "#", "%", "?", a tab
          // or a newline in a file name stays part of the name.
          function fileURL(path) {
            return path.split("/").map(function (part) { return part === ".." ? part : encodeURIComponent(part); }).join("/");
          }

          // On a canvas (a pair of two sizes, drawn on the larger of each side, top-left aligned,
          // as the comparison lays them), an image takes its share of the canvas's width.
          function image(src, alt, size, className, canvas) {
            var img = el("img", { src: fileURL(src), alt: alt, loading: "lazy", decoding: "async", "class": className,
                                  width: size && size.width, height: size && size.height });
            if (canvas && size && size.width) img.style.width = (100 * size.width / canvas.width) + "%";
            img.addEventListener("load", function () {
              img.dataset.loaded = "true";
              if (img.naturalWidth && img.clientWidth > img.naturalWidth) img.classList.add("pixelated");
            });
            img.addEventListener("error", function () { img.dataset.loaded = "error"; });
            return img;
          }

          // The bounding box is in the canvas's coordinates.
          function box(pair, size) {
            var b = pair.metrics && pair.metrics.boundingBox;
            if (!b || !size || !size.width || !size.height) return null;
            var style = "left:" + (100 * b.minX / size.width) + "%;top:" + (100 * b.minY / size.height) + "%;" +
              "width:" + (100 * (b.maxX - b.minX + 1) / size.width) + "%;height:" + (100 * (b.maxY - b.minY + 1) / size.height) + "%";
            return el("div", { "class": "box", style: style, title: "bounding box " + b.minX + ":" + b.minY + "-" + b.maxX + ":" + b.maxY });
          }

          // A frame shows a canvas when given one: the frame keeps the canvas's shape, and its
          // images lie on it at their own sizes.
          function figure(caption, frameChildren, extra, canvas) {
            var frame = el("div", { "class": canvas ? "frame canvas" : "frame" }, frameChildren);
            if (canvas) frame.style.aspectRatio = canvas.width + " / " + canvas.height;
            return el("figure", {}, [el("figcaption", { text: caption }), frame].concat(extra || []));
          }

          function sizes(pair) {
            var m = pair.metrics || {};
            return { reference: m.referenceSize, actual: m.actualSize };
          }

          // The canvas two images of other sizes are compared on (the larger width and height,
          // where the mask and the bounding box lie); null for a pair of one size.
          function canvasOf(s) {
            if (!s.reference || !s.actual) return null;
            if (s.reference.width === s.actual.width && s.reference.height === s.actual.height) return null;
            return { width: Math.max(s.reference.width, s.actual.width), height: Math.max(s.reference.height, s.actual.height) };
          }

          // The images as the page shows them: a PNG preview in place of a copy in a format
          // browsers do not show (TIFF, PPM), where the batch wrote one.
          function shown(outputs) {
            return { reference: outputs.referencePreview || outputs.reference, "new": outputs.newPreview || outputs["new"],
                     blend: outputs.blend, mask: outputs.mask };
          }

          function buildView(pair, view) {
            var o = shown(pair.outputs), s = sizes(pair), canvas = canvasOf(s), area = canvas || s.reference;
            if (pair.status === "new") return [figure("New (no reference)", [image(o.new, "new " + pair.path)])];
            if (pair.status === "deleted") return [figure("Reference (no new image)", [image(o.reference, "reference " + pair.path)])];
            if (view === "blend") {
              return [figure("Blend: reference tinted red, dissolved over new",
                [image(o.blend, "blend " + pair.path, s.actual, null, canvas), box(pair, area)], null, canvas)];
            }
            if (view === "mask") {
              return [figure("Mask: differing pixels in red, over the reference", [
                image(o.reference, "reference " + pair.path, s.reference, "under", canvas),
                image(o.mask, "mask " + pair.path, area, "over", canvas), box(pair, area)], null, canvas)];
            }
            if (view === "slider" || view === "onion") {
              // The new image in a layer over the whole frame, so that the slider clips it at the
              // divider's place on the canvas, whatever its size.
              var top = el("div", { "class": "layer" }, [image(o.new, "new " + pair.path, s.actual, canvas ? null : "over", canvas)]);
              var divider = view === "slider" ? el("div", { "class": "divider", style: "left:50%" }) : null;
              var range = el("input", { type: "range", min: "0", max: "100", value: "50", "aria-label": VIEWS[view] });
              function apply() {
                if (view === "slider") { top.style.clipPath = "inset(0 0 0 " + range.value + "%)"; divider.style.left = range.value + "%"; }
                else top.style.opacity = range.value / 100;
              }
              range.addEventListener("input", apply);
              apply();
              return [figure(view === "slider" ? "Slider: reference left, new right" : "Onion skin: new over reference",
                [image(o.reference, "reference " + pair.path, s.reference, null, canvas), top, divider, box(pair, area)],
                [el("label", { "class": "control" }, [el("span", { text: "reference" }), range, el("span", { text: "new" })])], canvas)];
            }
            return [
              figure("Reference", [image(o.reference, "reference " + pair.path, s.reference, null, canvas), box(pair, area)], null, canvas),
              figure("New", [image(o.new, "new " + pair.path, s.actual, null, canvas), box(pair, area)], null, canvas)
            ];
          }

          function numbers(pair) {
            var m = pair.metrics;
            if (!m) return null;
            function item(label, value) { return el("li", {}, [document.createTextNode(label + " "), el("b", { text: value })]); }
            var items = [
              item("pixels", integer(m.differentPixels) + " / " + integer(m.totalPixels)),
              item("differ", percent(m.differentRatio)),
              item("max " + deltaEName(m.deltaEFormula), m.maxDeltaE.toFixed(2)),
              item("max channel Δ", String(m.maxChannelDelta)),
              item("box", m.boundingBox ? m.boundingBox.minX + ":" + m.boundingBox.minY + "–" + m.boundingBox.maxX + ":" + m.boundingBox.maxY +
                " (" + (m.boundingBox.maxX - m.boundingBox.minX + 1) + "×" + (m.boundingBox.maxY - m.boundingBox.minY + 1) + ")" : "none")
            ];
            if (m.sizeDiffers) items.push(item("size", m.referenceSize.width + "×" + m.referenceSize.height + " → " + m.actualSize.width + "×" + m.actualSize.height));
            if (m.antialiasedPixels) items.push(item("anti-aliased", integer(m.antialiasedPixels)));
            return el("ul", { "class": "numbers" }, items);
          }

          function card(pair) {
            var article = el("article", { "class": "pair", "data-status": pair.status, "data-path": pair.path }, [
              el("div", { "class": "pair-header" }, [el("span", { "class": "badge " + pair.status, text: pair.status }), el("span", { "class": "path", text: pair.path })]),
              numbers(pair)
            ]);
            if (pair.snapshot && pair.snapshot.message) article.appendChild(el("p", { "class": "message", text: pair.snapshot.message }));
            if (pair.status === "error") {
              article.appendChild(el("p", { "class": "message", text: pair.error }));
              return article;
            }
            var stage = el("div", { "class": "stage" });
            var views = pair.status === "changed" ? ["side", "blend", "mask", "slider", "onion"]
              : pair.status === "passed" ? ["side", "slider", "onion"] : [];
            var current = views.indexOf(state.view) >= 0 ? state.view : views[0];
            var tabs = el("div", { "class": "tabs", role: "tablist" });
            function show(view) {
              current = view;
              stage.replaceChildren.apply(stage, buildView(pair, view).filter(Boolean));
              stage.dataset.view = view || "single";
              Array.prototype.forEach.call(tabs.children, function (tab) { tab.setAttribute("aria-selected", String(tab.dataset.view === view)); });
            }
            views.forEach(function (view) {
              var tab = el("button", { type: "button", role: "tab", "data-view": view, text: VIEWS[view] });
              tab.addEventListener("click", function () { show(view); });
              tabs.appendChild(tab);
            });
            if (views.length) article.appendChild(tabs);
            article.appendChild(stage);
            show(current);
            return article;
          }

          function renderMore() {
            var end = Math.min(state.shown + PAGE, state.matching.length);
            var fragment = document.createDocumentFragment();
            for (var i = state.shown; i < end; i++) fragment.appendChild(card(state.matching[i]));
            list.appendChild(fragment);
            state.shown = end;
            document.body.dataset.shown = String(end);
            if (observer && end < state.matching.length) { observer.unobserve(sentinel); observer.observe(sentinel); }
            document.getElementById("shown").textContent = state.matching.length === 0 ? "" :
              "Showing " + integer(end) + " of " + integer(state.matching.length) + " pairs" + (end < state.matching.length ? " (scroll for more)" : "");
          }

          function render() {
            var predicate = FILTERS.filter(function (f) { return f[0] === state.filter; })[0][2];
            state.matching = report.pairs.filter(predicate);
            state.shown = 0;
            list.replaceChildren();
            Array.prototype.forEach.call(document.querySelectorAll("#filters a"), function (a) {
              a.setAttribute("aria-current", String(a.dataset.filter === state.filter));
              // Another filter keeps the view the link opened with.
              a.setAttribute("href", "#filter=" + a.dataset.filter + (state.view === "side" ? "" : "&view=" + state.view));
            });
            if (state.matching.length === 0) list.appendChild(el("p", { "class": "empty", text: "No pairs match this filter." }));
            renderMore();
            document.body.dataset.filter = state.filter;
            document.body.dataset.ready = "true";
          }

          document.getElementById("dirs").textContent = report.referenceDirectory + "  →  " + report.newDirectory;
          var nav = document.getElementById("filters");
          FILTERS.forEach(function (f) {
            var count = report.pairs.filter(f[2]).length;
            nav.appendChild(el("a", { href: "#filter=" + f[0], "data-filter": f[0] }, [document.createTextNode(f[1]), el("span", { "class": "count", text: integer(count) })]));
          });
          window.addEventListener("hashchange", function () { parseHash(); render(); window.scrollTo(0, 0); });
          if ("IntersectionObserver" in window) {
            observer = new IntersectionObserver(function (entries) {
              if (entries.some(function (e) { return e.isIntersecting; }) && state.shown < state.matching.length) renderMore();
            }, { rootMargin: "1200px" });
            observer.observe(sentinel);
          }
          parseHash();
          render();
        })();
        </script>
        </body>
        </html>

        """#
}
