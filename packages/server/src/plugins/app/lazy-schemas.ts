import AjvCompiler from '@fastify/ajv-compiler'
import SerializerSelector from '@fastify/fast-json-stringify-compiler'

type ValidatorBuilder = ReturnType<typeof AjvCompiler>
type SerializerBuilder = ReturnType<typeof SerializerSelector>
type Validate = ReturnType<ReturnType<ValidatorBuilder>>
type Serialize = ReturnType<ReturnType<SerializerBuilder>>

/** Built once, as Fastify does: each keeps a pool of compilers per set of shared schemas and options. */
const validators = AjvCompiler()
const serializers = SerializerSelector()

/**
 * Fastify's own schema compilers (ajv for requests, fast-json-stringify for responses), each
 * route's functions compiled on its first use instead of all of them at start: compiling the
 * response serialisers and request validators of ~90 routes was a third of the start-up's CPU
 * (bench/README.md, start to ready). Same compilers, same options, same pools, same functions
 * once made; a route never called costs nothing. Pass as Fastify's `schemaController.compilersFactory`.
 */
export const lazySchemaCompilers = {
  buildValidator: ((external, options) => {
    const compile = validators(external, options)
    return (route) => onFirstValidation(() => compile(route))
  }) as ValidatorBuilder,
  buildSerializer: ((external, options) => {
    const compile = serializers(external, options)
    return (route) => {
      let serialize: Serialize | undefined
      return (value: unknown) => {
        serialize ??= compile(route)
        return serialize(value)
      }
    }
  }) as SerializerBuilder,
}

/** A validator made on its first call; like ajv's, it keeps the last call's `errors` on itself (Fastify reads them). */
function onFirstValidation(make: () => Validate): Validate {
  let validate: Validate | undefined
  const lazy = ((value: unknown) => {
    validate ??= make()
    const valid = validate(value)
    lazy.errors = validate.errors
    return valid
  }) as Validate
  return lazy
}
