import { Type } from '@fastify/type-provider-typebox'
import { AlphanumericName, BooleanString, PageNumberString, worded } from './common.js'

export const CreateDataAppBody = Type.Object(
  { name: AlphanumericName },
  { additionalProperties: false, examples: [{ name: 'salesapp' }] },
)
export const CreateDataAppResponse = Type.Object({ name: Type.String(), key: Type.String() })

export const RenameDataAppBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, description: 'The current name of the data app' }),
    updateName: { ...AlphanumericName, description: 'The new name: letters and digits, unique in the organization' },
  },
  { additionalProperties: false, examples: [{ name: 'salesapp', updateName: 'salesappeu' }] },
)
export const RenameDataAppResponse = Type.Object({ name: Type.String() })

export const DataAppList = Type.Object({
  data: Type.Array(
    Type.Object({
      name: Type.String(),
      type: Type.Literal('embedded'),
      createdAt: Type.String(),
      updatedAt: Type.String(),
      embedCount: Type.Integer(),
      embeds: Type.Immutable(
        Type.Array(
          Type.Object({
            name: Type.String(),
            embedId: Type.String(),
            createdAt: Type.String(),
            updatedAt: Type.String(),
          }),
        ),
      ),
    }),
  ),
})

export const CreateApiTokenBody = Type.Object(
  {
    dataAppName: AlphanumericName,
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  {
    additionalProperties: false,
    examples: [{ dataAppName: 'salesapp', name: 'backend-eu', description: 'The EU backend, rotated quarterly' }],
  },
)

export const ApiTokenListQuery = Type.Object(
  {
    dataAppName: Type.String({ minLength: 1 }),
    isPagination: Type.Optional(BooleanString),
    pageNumber: Type.Optional(PageNumberString),
  },
  { additionalProperties: false },
)

export const ApiTokenList = Type.Object({
  data: Type.Array(
    Type.Object({ key: Type.String(), name: Type.String(), description: Type.String(), createdAt: Type.String() }),
  ),
})

export const RevokeApiTokenQuery = Type.Object(
  { dataAppName: Type.String({ minLength: 1 }), key: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
)

const Domain = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: worded(
    '^(\\*\\.)?[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?$',
    'host[:port], without a scheme or path (app.example.com, *.customer.com, localhost:3000)',
  ),
  description: 'An origin allowed to load the embeds: host[:port] or *.host[:port], without a scheme or path',
})

export const WhitelistDomainsBody = Type.Object(
  { domains: Type.Array(Domain, { maxItems: 100 }) },
  { additionalProperties: false, examples: [{ domains: ['app.example.com', '*.customer.com', 'localhost:3000'] }] },
)
export const WhitelistDomainsResponse = Type.Object({ data: Type.Array(Type.String()) })

/** A data app named in the path, for the organization-level routes that act for it (the studio). */
export const DataAppParams = Type.Object(
  { dataAppName: Type.String({ minLength: 1, maxLength: 100, description: 'The name of one of your data apps' }) },
  { additionalProperties: false },
)
