/**
 * The standalone validators generated from `schemas/` at build time, gathered as data. They are about 870 KB of code,
 * so only the modules that need them import this one: the full entry installs them eagerly, and
 * {@link loadSchemaValidators} loads them on demand.
 */

import { validate as validateCanonical } from '../generated/canonical-event.js';
import { validate as validateOfficial } from '../generated/official.js';
import { validate as validateOfficialStrict } from '../generated/official-strict.js';
import { validate as validatePayloadEnvelope } from '../generated/payload-envelope.js';
import { validate as validatePayloadEnvelopeStrict } from '../generated/payload-envelope-strict.js';
import { validate as validatePythonWrapper } from '../generated/python-wrapper.js';
import { validate as validatePythonWrapperStrict } from '../generated/python-wrapper-strict.js';
import type { SchemaValidators } from './validator-registry.ts';

/** Every generated validator: each built-in dialect's schema as written (open) and strict, and the canonical one. */
export const GENERATED_VALIDATORS: SchemaValidators = {
  dialects: {
    official: { open: validateOfficial, strict: validateOfficialStrict },
    'python-wrapper': { open: validatePythonWrapper, strict: validatePythonWrapperStrict },
    'payload-envelope': { open: validatePayloadEnvelope, strict: validatePayloadEnvelopeStrict },
  },
  canonical: validateCanonical,
};
