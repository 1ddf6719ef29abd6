import { Type } from '@fastify/type-provider-typebox'

const Email = Type.String({ format: 'email', maxLength: 254 })
const Password = Type.String({ minLength: 1, maxLength: 256 })

export const CreateAdminBody = Type.Object(
  {
    firstName: Type.String({ minLength: 3, maxLength: 30 }),
    email: Email,
    password: Password,
    companyName: Type.String({ minLength: 1, maxLength: 100 }),
  },
  {
    additionalProperties: false,
    examples: [{ firstName: 'Alice', email: 'alice@example.com', password: 'Str0ng!Pass', companyName: 'Acme' }],
  },
)

export const AccessTokenResponse = Type.Object({ data: Type.Object({ accessToken: Type.String() }) })

export const SignInBody = Type.Object(
  { email: Email, password: Password },
  { additionalProperties: false, examples: [{ email: 'alice@example.com', password: 'Str0ng!Pass' }] },
)

export const RefreshBody = Type.Object(
  { refreshToken: Type.String({ minLength: 1, maxLength: 512 }) },
  { additionalProperties: false, examples: [{ refreshToken: 'rt_5d1c0f3b9a2e4c7d8f6a1b0e9c3d2f4a' }] },
)

export const SessionResponse = Type.Object({
  data: Type.Object({
    accessToken: Type.String(),
    refreshToken: Type.String(),
    expiresIn: Type.Integer({ description: 'seconds until accessToken expires' }),
  }),
})

const Guid = Type.String({
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  description: 'A GUID of your choosing; generated when absent',
})

export const CreateServiceTokenBody = Type.Object(
  { token: Type.Optional(Guid) },
  { additionalProperties: false, examples: [{ token: '3f2b8c1e-7d4a-4e9b-a6c5-0d1e2f3a4b5c' }] },
)

export const RotateServiceTokenBody = Type.Object(
  {
    token: Type.Optional(Guid),
    expireAt: Type.Integer({
      minimum: 0,
      maximum: 30 * 24 * 3600,
      description: 'Seconds the previous token keeps working; 0 revokes it now',
    }),
  },
  { additionalProperties: false, examples: [{ token: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d', expireAt: 3600 }] },
)

export const KeyResponse = Type.Object({ key: Type.String() })

export const ResetPasswordBody = Type.Object(
  { currentPassword: Password, password: Password },
  { additionalProperties: false, examples: [{ currentPassword: 'Str0ng!Pass', password: 'N3w&Str0nger' }] },
)

export const ResetPasswordResponse = Type.Object({ data: Type.Object({ success: Type.Boolean() }) })
