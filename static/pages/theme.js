// The light or dark theme: the system's choice (prefers-color-scheme) until the header's
// toggle picks one, which this device remembers. Loaded in <head> so that a remembered theme
// applies before the first paint.
(function theme() {
  const KEY = "small-council:theme";
  const root = document.documentElement;
  const system = window.matchMedia("(prefers-color-scheme: dark)");
  let saved = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch {
    saved = null;
  }
  if (saved === "light" || saved === "dark") root.dataset.theme = saved;
  const current = () => root.dataset.theme ?? (system.matches ? "dark" : "light");

  function show(button) {
    button.setAttribute("aria-pressed", String(current() === "dark"));
  }

  document.addEventListener("DOMContentLoaded", () => {
    const button = document.getElementById("theme-toggle");
    if (!button) return;
    button.hidden = false;
    show(button);
    system.addEventListener("change", () => show(button));
    button.addEventListener("click", () => {
      const next = current() === "dark" ? "light" : "dark";
      root.dataset.theme = next;
      try {
        localStorage.setItem(KEY, next);
      } catch {
        /* a private window keeps it for the page only */
      }
      show(button);
    });
  });
})();
