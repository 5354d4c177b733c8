// The presets/ files the WebAssembly module leaves out (the validation cases: CMake's
// PALEO_PRESETS_LEFT_OUT), shipped beside the page as one classic script per folder
// (data/<folder>.js, written by web/build.mjs). A classic script, not fetch(): it needs no
// connect-src, and it loads from file:// too. Each script registers
// {"<folder>/<name>.json": text, ...} under self.paleoPresetData[folder]; the core client hands
// the texts to every worker's core (core_client.js addPresetFiles).

// The folders the build left out, comma-separated: web/build.mjs defines them (none when it is run
// another way). A string: esbuild would put a defined array in a chunk of its own, one more request.
const LEFT_OUT = typeof PALEO_LEFT_OUT_FOLDERS !== 'undefined' ? PALEO_LEFT_OUT_FOLDERS.split(',').filter(Boolean) : [];

const loading = new Map();  // folder -> promise of its files

function loadScript(folder) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `data/${folder}.js`;  // beside the page
    script.async = true;
    script.onload = () => {
      const files = self.paleoPresetData?.[folder];
      if (files) resolve(files);
      else reject(new Error(`data/${folder}.js registered no files`));
    };
    script.onerror = () => reject(new Error(`data/${folder}.js could not be loaded`));
    document.head.append(script);
  });
}

// Resolves once the folder's files are in the core (at once where the module has them built in).
// A load that fails is forgotten, so that opening the section again tries again.
export function presetData(core, folder) {
  if (!LEFT_OUT.includes(folder)) return Promise.resolve();
  if (!loading.has(folder)) {
    loading.set(folder, loadScript(folder).then((files) => core.addPresetFiles(files), (e) => {
      loading.delete(folder);
      throw e;
    }));
  }
  return loading.get(folder);
}
