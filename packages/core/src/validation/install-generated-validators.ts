/**
 * Installs the generated schema validators as a side effect of being imported: the full `@cursor-stream/core` entry
 * imports this, so that `validate` works there without a prior `await`.
 */

import { GENERATED_VALIDATORS } from '../generated/schema-validators.ts';
import { installSchemaValidators } from './validator-registry.ts';

installSchemaValidators(GENERATED_VALIDATORS);
