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
  { additionalProperties: false },
)

export const AccessTokenResponse = Type.Object({ data: Type.Object({ accessToken: Type.String() }) })

export const SignInBody = Type.Object({ email: Email, password: Password }, { additionalProperties: false })

export const RefreshBody = Type.Object(
  { refreshToken: Type.String({ minLength: 1, maxLength: 512 }) },
  { additionalProperties: false },
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

export const CreateServiceTokenBody = Type.Object({ token: Type.Optional(Guid) }, { additionalProperties: false })

export const RotateServiceTokenBody = Type.Object(
  {
    token: Type.Optional(Guid),
    expireAt: Type.Integer({
      minimum: 0,
      maximum: 30 * 24 * 3600,
      description: 'Seconds the previous token keeps working; 0 revokes it now',
    }),
  },
  { additionalProperties: false },
)

export const KeyResponse = Type.Object({ key: Type.String() })

export const ResetPasswordBody = Type.Object(
  { currentPassword: Password, password: Password },
  { additionalProperties: false },
)

export const ResetPasswordResponse = Type.Object({ data: Type.Object({ success: Type.Boolean() }) })
