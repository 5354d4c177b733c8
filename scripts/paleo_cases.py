"""What the fitting scripts share: a validation case's prediction at given kernel efficiencies,
through `paleo api` (stdlib only)."""
import json
import subprocess


def predict(paleo, case, efficiency):
    """The case's compared figure (a JSON pointer, or a list of them summed) with `efficiency`
    laid over its request."""
    request = dict(case['request'], efficiency=efficiency)
    out = json.loads(subprocess.run([paleo, 'api'], input=json.dumps(request), capture_output=True,
                                    text=True, check=False).stdout)
    if not out.get('ok'):
        raise SystemExit(f"{case['id']}: {out.get('error')}")
    return compared(out, case['compare'])


def compared(response, compare):
    """The figure a case compares in a response: a JSON pointer, or a list of them summed."""
    pointers = compare if isinstance(compare, list) else [compare]
    total = 0.0
    for pointer in pointers:
        node = response
        for part in pointer.strip('/').split('/'):
            node = node[int(part)] if isinstance(node, list) else node[part]
        total += node
    return total


def era_fits(era):
    """The fits recorded for an era of presets/software_eras.json: (None, the era itself), then
    (generation, refit) for each device generation it was refitted on ("by_generation")."""
    return [(None, era), *era.get('by_generation', {}).items()]
