// The spec box's textarea. A net of megabytes laid out as text costs the browser most of a second
// (the 3.3 MB spec of a 1 MB link: 0.9 s of layout in one task), even while the box is closed; so
// a long text goes into the textarea only once the box is open, and is kept aside until then.
const AT_ONCE_CHARS = 64 * 1024;

export class SpecBox {
  constructor(box, textarea) {
    Object.assign(this, { box, textarea, aside: null });
    box.addEventListener('toggle', () => {
      if (box.open) this.show();
    });
  }

  // Puts `text` in the box: now, or when the box opens.
  set(text) {
    if (this.box.open || text.length <= AT_ONCE_CHARS) {
      this.aside = null;
      this.textarea.value = text;
    } else {
      this.aside = text;
      this.textarea.value = '';
    }
  }

  // The box's text, shown yet or not.
  get text() {
    return this.aside ?? this.textarea.value;
  }

  show() {
    if (this.aside === null) return;
    this.textarea.value = this.aside;
    this.aside = null;
  }
}
