// Checks a recorded trace against recorder/trace.schema.json before the replay folds or draws it.
//
// The schema is the one source of what a trace may hold (the build ships the same file the engine's
// `python -m recorder validate` uses); this is a small JSON Schema checker for exactly the keywords that
// file uses. A keyword it does not know is an error, not a silent pass: a new rule in the schema must
// be taught here before a trace can rely on it. The replay views may then trust types and bounds: a
// number is a number, an id a short string, so no field of a trace can smuggle markup into a figure.
// Words that only describe; they constrain nothing.
const NOTES = new Set(["$schema", "$id", "$comment", "$defs", "title", "description", "x-max-bytes"]);

class TraceCheckError extends Error {}

function typeOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value; // "string", "boolean", "object"
}

function hasType(value, type) {
  const t = typeOf(value);
  return t === type || (type === "number" && t === "integer");
}

const show = (value) => {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 40 ? `${text.slice(0, 39)}…` : text;
};

function equal(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// The first problem as [path, German message], or null when value satisfies schema.
function problem(value, schema, rootSchema, path) {
  for (const key of Object.keys(schema)) {
    const rule = schema[key];
    const fail = (msg) => [path, msg];
    switch (key) {
      case "$ref": {
        const target = rule.replace(/^#\//, "").split("/").reduce((node, part) => node && node[part], rootSchema);
        if (!target) throw new TraceCheckError(`Schema: Verweis ${rule} fehlt`);
        const p = problem(value, target, rootSchema, path);
        if (p) return p;
        break;
      }
      case "oneOf": {
        const fits = rule.filter((sub) => !problem(value, sub, rootSchema, path)).length;
        if (fits !== 1) return fail(fits ? "passt auf mehrere Formen" : "passt auf keine erlaubte Form");
        break;
      }
      case "type": {
        const types = Array.isArray(rule) ? rule : [rule];
        if (!types.some((t) => hasType(value, t))) return fail(`erwartet ${types.join(" oder ")}, gefunden ${show(value)}`);
        break;
      }
      case "const":
        if (!equal(value, rule)) return fail(`erwartet ${show(rule)}`);
        break;
      case "enum":
        if (!rule.some((v) => equal(v, value))) return fail(`${show(value)} ist keiner der erlaubten Werte`);
        break;
      case "minimum":
        if (typeof value === "number" && !(value >= rule)) return fail(`${show(value)} ist kleiner als ${rule}`);
        break;
      case "maximum":
        if (typeof value === "number" && !(value <= rule)) return fail(`${show(value)} ist größer als ${rule}`);
        break;
      case "exclusiveMinimum":
        if (typeof value === "number" && !(value > rule)) return fail(`${show(value)} ist nicht größer als ${rule}`);
        break;
      case "minLength":
        if (typeof value === "string" && [...value].length < rule) return fail("Text zu kurz");
        break;
      case "maxLength":
        if (typeof value === "string" && [...value].length > rule) return fail(`Text länger als ${rule} Zeichen`);
        break;
      case "pattern":
        if (typeof value === "string" && !new RegExp(rule, "u").test(value)) return fail(`${show(value)} hat nicht die erwartete Form`);
        break;
      case "minItems":
        if (Array.isArray(value) && value.length < rule) return fail(`weniger als ${rule} Einträge`);
        break;
      case "maxItems":
        if (Array.isArray(value) && value.length > rule) return fail(`mehr als ${rule} Einträge`);
        break;
      case "items":
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) {
            const p = problem(value[i], rule, rootSchema, `${path}/${i}`);
            if (p) return p;
          }
        }
        break;
      case "required":
        if (typeOf(value) === "object") {
          const missing = rule.find((name) => !Object.prototype.hasOwnProperty.call(value, name));
          if (missing !== undefined) return fail(`„${missing}“ fehlt`);
        }
        break;
      case "maxProperties":
        if (typeOf(value) === "object" && Object.keys(value).length > rule) return fail(`mehr als ${rule} Einträge`);
        break;
      case "propertyNames":
        if (typeOf(value) === "object") {
          for (const name of Object.keys(value)) {
            const p = problem(name, rule, rootSchema, `${path}/${name.slice(0, 20)}`);
            if (p) return p;
          }
        }
        break;
      case "properties":
      case "additionalProperties":
        if (typeOf(value) === "object") {
          const props = schema.properties || {};
          const extra = schema.additionalProperties;
          for (const name of Object.keys(value)) {
            const own = Object.prototype.hasOwnProperty.call(props, name);
            if (key === "properties" && !own) continue;
            if (key === "additionalProperties" && own) continue;
            if (rule === false) return fail(`„${name.slice(0, 20)}“ ist hier nicht vorgesehen`);
            const p = problem(value[name], key === "properties" ? props[name] : extra, rootSchema, `${path}/${name.slice(0, 20)}`);
            if (p) return p;
          }
        }
        break;
      default:
        if (!NOTES.has(key)) throw new TraceCheckError(`Schema: das Schlüsselwort „${key}“ kennt die Prüfung nicht`);
    }
  }
  return null;
}

// Throws TraceCheckError naming the first place where trace breaks schema.
function check(trace, schema) {
  const p = problem(trace, schema, schema, "");
  if (p) throw new TraceCheckError(`bei ${p[0] || "(Wurzel)"}: ${p[1]}`);
}

export { check, TraceCheckError };
