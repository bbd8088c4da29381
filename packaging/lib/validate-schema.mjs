// Validates a JSON document against a JSON Schema (draft-07, as the MCP Registry's
// server.schema.json is) with Ajv and its format checks, and prints every error.
//
//   node validate-schema.mjs SCHEMA DOCUMENT     exit 0 if valid, 1 if not
import { readFileSync } from "node:fs";
import Ajv from "ajv";
import addFormats from "ajv-formats";

const [schemaPath, documentPath] = process.argv.slice(2);
const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
const document = JSON.parse(readFileSync(documentPath, "utf8"));
// strict: false because the schema carries OpenAPI's `example` keyword, which is
// documentation, not validation.
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);
if (validate(document)) {
  console.log(`${documentPath}: valid against ${schema.$id ?? schemaPath}`);
} else {
  for (const error of validate.errors) {
    console.error(`${documentPath}: ${error.instancePath || "/"} ${error.message} (${error.schemaPath})`);
  }
  process.exit(1);
}
