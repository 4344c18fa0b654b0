// The player's own settings, kept in this browser: how fast the computer players' moves are
// shown, whether the page plays sounds (off until switched on), and the theme (the system's
// light or dark scheme, or one chosen here).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { DEFAULT_SPEED, SPEEDS } from "./pacing.js";

const KEY = "thirtyone.settings";
const DEFAULTS = { speed: DEFAULT_SPEED, sound: false, theme: "system" };
const THEMES = ["system", "light", "dark"];

/** The settings as kept, each one its default when it was never set (or storage refuses). */
export function settings() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY)) };
  } catch {
    return { ...DEFAULTS };
  }
}

function keep(name, value) {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...settings(), [name]: value }));
  } catch {
    // Without storage the setting lasts as long as the page.
  }
}

/** The chosen theme on the page's root (none: the system's scheme decides, in the CSS). */
export function applyTheme() {
  const { theme } = settings();
  if (theme === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

/** The settings as a disclosure for the page's header. */
export function settingsPanel() {
  const current = settings();
  const choice = (id, name, values, label) => {
    const select = h("select", { id, "data-setting": name },
      values.map((value) => h("option", { value }, t(`${name}_${value}`))));
    select.value = current[name];
    select.addEventListener("change", () => {
      keep(name, select.value);
      applyTheme();
    });
    return h("span", {}, h("label", { for: id }, label), " ", select);
  };
  const sound = h("input", { id: "setting-sound", type: "checkbox", "data-setting": "sound",
    checked: current.sound });
  sound.addEventListener("change", () => keep("sound", sound.checked));
  return h("details", { class: "settings" }, h("summary", {}, t("settings")),
    h("div", { class: "settings-fields" },
      choice("setting-speed", "speed", Object.keys(SPEEDS), t("bot_speed")),
      h("span", {}, sound, " ", h("label", { for: "setting-sound" }, t("sounds"))),
      choice("setting-theme", "theme", THEMES, t("theme"))));
}
