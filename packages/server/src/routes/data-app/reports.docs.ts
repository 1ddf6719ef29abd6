import { DATA_APP_KEY, operations } from '../../schemas/openapi.js'

const unconfigured = [
  400,
  'EMAIL_NOT_CONFIGURED',
  'The server has no SMTP_URL and EMAIL_FROM: email reports are off.',
] as const

/** GET/DELETE /api/v2/data-app/reports; data app key. */
export const docs = operations('data apps', {
  listDataAppReports: {
    summary: "List the data app's email reports",
    description:
      'Every scheduled email report end users of this data app made, oldest first, optionally of one embed (`embedId`) or one tenant (`clientId`): schedule, recipients, next run and status. The claims a report runs with are never part of it. Takes the data app API key.',
    auth: DATA_APP_KEY,
    errors: [unconfigured],
  },
  deleteDataAppReport: {
    summary: 'Delete an email report',
    description:
      "Deletes one report of this data app, whichever tenant made it (`?reportId=`, as the data app's other DELETE routes take their target); it is never sent again. Takes the data app API key.",
    auth: DATA_APP_KEY,
    errors: [unconfigured, [400, 'INVALID_REQUEST_BODY', 'No report with this id in this data app.']],
  },
})
