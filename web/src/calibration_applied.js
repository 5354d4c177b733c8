// The profile applied to the page's estimates (the state's `calibration`), in words, with the
// button that removes it: shown from the link before the calibration panel's code has loaded.
const $ = (id) => document.getElementById(id);

export function showAppliedProfile(text) {
  $('cal-applied').hidden = !text;
  $('cal-remove').hidden = !text;
  $('cal-applied').textContent = text ? `Applied to every estimate on this page: ${text}` : '';
}
