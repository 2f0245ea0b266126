// A House's arms as a small inline SVG shield in its two colours: the field (plain or a
// partition) and one charge, both named in config/roster.toml (config/rulesdata.py lists the
// names; a test checks that this module draws each). Drawn here, from simple shapes.
// The SVG namespace, as the HTML parser gives it to an <svg> element.
const NS = (() => {
  const probe = document.createElement("div");
  probe.innerHTML = "<svg></svg>";
  return probe.firstChild.namespaceURI;
})();
const SHIELD = "M2 2H38V22C38 35 29 42 20 46C11 42 2 35 2 22Z";
let made = 0;

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  el.append(...children);
  return el;
}

// The field: the shield's first colour, and the second where a partition puts it.
const FIELDS = {
  "plain": () => [],
  "per-pale": (c2) => [svg("rect", { x: 20, y: 0, width: 20, height: 48, fill: c2 })],
  "per-fess": (c2) => [svg("rect", { x: 0, y: 22, width: 40, height: 26, fill: c2 })],
  "per-bend": (c2) => [svg("polygon", { points: "0,0 40,0 40,48", fill: c2 })],
  "quarterly": (c2) => [
    svg("rect", { x: 20, y: 0, width: 20, height: 22, fill: c2 }),
    svg("rect", { x: 0, y: 22, width: 20, height: 26, fill: c2 }),
  ],
  "bordure": (c2) => [svg("path", { d: SHIELD, fill: "none", stroke: c2, "stroke-width": 8 })],
  "chief": (c2) => [svg("rect", { x: 0, y: 0, width: 40, height: 13, fill: c2 })],
};

function star(points, outer, inner) {
  const corners = [];
  for (let i = 0; i < points * 2; i += 1) {
    const r = i % 2 ? inner : outer,
      a = (Math.PI * i) / points - Math.PI / 2;
    corners.push(`${(r * Math.cos(a)).toFixed(2)},${(r * Math.sin(a)).toFixed(2)}`);
  }
  return corners.join(" ");
}

// The charge, centred on (0, 0), about 24 units across; drawn in the second colour and
// outlined in the first so that it reads on either part of a partitioned field.
const CHARGES = {
  "none": () => [],
  "roundel": () => [svg("circle", { r: 8 })],
  "lozenge": () => [svg("polygon", { points: "0,-11 8,0 0,11 -8,0" })],
  "mullet": () => [svg("polygon", { points: star(5, 11, 4.5) })],
  "crown": () => [svg("path", { d: "M-10 7H10V-3L6 1L3-8L0 0L-3-8L-6 1L-10-3Z" })],
  "chevron": () => [svg("polygon", { points: "-15,7 0,-7 15,7 15,13 0,-1 -15,13" })],
  "cross": () => [svg("path", { d: "M-3-11H3V-3H11V3H3V11H-3V3H-11V-3H-3Z" })],
  "rose": (c1) =>
    [0, 1, 2, 3, 4]
      .map((i) =>
        svg("circle", {
          r: 4.5,
          cx: (6 * Math.sin((2 * Math.PI * i) / 5)).toFixed(2),
          cy: (-6 * Math.cos((2 * Math.PI * i) / 5)).toFixed(2),
        }),
      )
      .concat(svg("circle", { r: 3, fill: c1 })),
  "sun": () => [svg("polygon", { points: star(12, 12, 6.5) }), svg("circle", { r: 5 })],
  "flame": () => [
    svg("path", {
      d: "M0-12C6-5 10 1 6 8C4 12-4 12-6 8C-9 2-3-2 0-12ZM0 0C3 4 2 8 0 9C-2 8-3 4 0 0Z",
      "fill-rule": "evenodd",
    }),
  ],
  "waves": () =>
    [-4, 3, 10].map((y) =>
      svg("path", {
        d: `M-13 ${y}q3.25-4 6.5 0t6.5 0t6.5 0t6.5 0`,
        fill: "none",
        "stroke-width": 2.6,
      }),
    ),
  "tower": () => [svg("path", { d: "M-7 11V-4H-10V-11H-6V-8H-2V-11H2V-8H6V-11H10V-4H7V11Z" })],
};

// The arms of a House of the court view ({colours, arms: {field, charge}}); decorative, so
// hidden from screen readers: the House's name always goes beside it.
export function armsOf(house, size = 1.5) {
  const [c1 = "#6b7280", c2 = "#f9fafb"] = house?.colours ?? [];
  const { field = "plain", charge = "none" } = house?.arms ?? {};
  made += 1;
  const clip = `arms-clip-${made}`;
  const figure = (CHARGES[charge] ?? CHARGES.none)(c1);
  const wavy = charge === "waves";
  return svg(
    "svg",
    {
      class: "arms",
      viewBox: "0 0 40 48",
      width: `${(size * 40) / 48}em`,
      height: `${size}em`,
      "aria-hidden": "true",
      focusable: "false",
      "data-arms": `${field} ${charge}`,
    },
    svg("defs", {}, svg("clipPath", { id: clip }, svg("path", { d: SHIELD }))),
    svg(
      "g",
      { "clip-path": `url(#${clip})` },
      svg("rect", { x: 0, y: 0, width: 40, height: 48, fill: c1 }),
      ...(FIELDS[field] ?? FIELDS.plain)(c2),
    ),
    svg(
      "g",
      {
        transform: `translate(20 ${field === "chief" ? 29 : 23})`,
        fill: wavy ? "none" : c2,
        stroke: wavy ? c2 : c1,
        "stroke-width": 1.2,
      },
      ...figure,
    ),
    svg("path", { d: SHIELD, fill: "none", stroke: "currentColor", "stroke-width": 1.5 }),
  );
}
