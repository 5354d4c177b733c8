// The input an error of the core belongs to, where CNN and transformer requests share the field:
// a custom device's member (the message names it), an applied calibration profile's fields (the
// calibration box, opened), or an imported graph's input shape (the spec box, opened). Null for
// any other field: each view maps its own.
import { CUSTOM_DEVICE, customDeviceInput, isDeviceField } from './custom_device.js';
import { INPUT_SHAPE_FIELDS } from './input_shape.js';

export function sharedFieldInput(field, message, state) {
  if (isDeviceField(field) && state.device === CUSTOM_DEVICE) return customDeviceInput(message) ?? 'device';
  if ((field === 'efficiency' || field === 'software_era') && state.calibration) {
    document.getElementById('calibration-box').open = true;
    return 'cal-text';
  }
  if (INPUT_SHAPE_FIELDS.has(field)) {
    document.getElementById('spec-box').open = true;
    return 'input_shape';
  }
  return null;
}
