/** The API's table of contents: every resource module, mounted in the order of spec §7. */
import type { App, AppContext } from './context.js';
import { accountRoutes } from '../modules/account/routes.js';
import { autoLoginRoutes } from '../modules/auto_login/routes.js';
import { launchRoutes } from '../modules/launch/routes.js';
import { confirmEmailRoutes } from '../modules/confirm_email/routes.js';
import { consultationSessionsRoutes } from '../modules/consultation_sessions/routes.js';
import { consultationFeedbackRoutes } from '../modules/consultation_sessions/feedback.js';
import { consultationTypesRoutes } from '../modules/consultation_types/routes.js';
import { generatedDocumentsRoutes } from '../modules/generated_documents/routes.js';
import { creditsRoutes } from '../modules/credits/routes.js';
import { audioToTextRoutes } from '../modules/audio_to_text/routes.js';
import { generateRoutes } from '../modules/generate/routes.js';
import { announcementsRoutes } from '../modules/announcements/routes.js';
import { assistantsRoutes } from '../modules/assistants/routes.js';
import { assistantsCatalogRoutes } from '../modules/assistants_catalog/routes.js';
import { healthzRoutes } from '../modules/healthz/routes.js';
import { loginRoutes } from '../modules/login/routes.js';
import { logoutRoutes } from '../modules/logout/routes.js';
import { medicalSpecialitiesRoutes } from '../modules/medical_specialities/routes.js';
import { organizationsRoutes } from '../modules/organizations/routes.js';
import { auditEventsRoutes } from '../modules/organizations/audit_events/routes.js';
import { fhirEndpointRoutes } from '../modules/organizations/fhir_endpoint/routes.js';
import { organizationInvitationsRoutes } from '../modules/organization_invitations/routes.js';
import { supportRoutes } from '../modules/support/routes.js';
import { qrTokenRoutes } from '../modules/qr_token/routes.js';
import { resetPasswordRoutes } from '../modules/reset_password/routes.js';
import { signedTokenLoginRoutes } from '../modules/signed_token_login/routes.js';
import { signupRoutes } from '../modules/signup/routes.js';
import { startRoutes } from '../modules/start/routes.js';
import { processorInputsRoutes } from '../modules/processor_inputs/routes.js';
import { customDocumentRequestsRoutes } from '../modules/custom_document_requests/routes.js';
import { selectableDocumentsRoutes } from '../modules/selectable_documents/routes.js';
import { templatesRoutes } from '../modules/templates/routes.js';
import { researchSpacesRoutes } from '../modules/research_spaces/routes.js';
import { aiEnginesRoutes } from '../modules/ai_engines/routes.js';

export function registerRoutes(app: App, ctx: AppContext) {
  healthzRoutes(app, ctx);
  // Account
  loginRoutes(app, ctx);
  logoutRoutes(app, ctx);
  signupRoutes(app, ctx);
  accountRoutes(app, ctx);
  organizationsRoutes(app, ctx);
  auditEventsRoutes(app, ctx);
  fhirEndpointRoutes(app, ctx);
  organizationInvitationsRoutes(app, ctx);
  supportRoutes(app, ctx);
  medicalSpecialitiesRoutes(app, ctx);
  resetPasswordRoutes(app, ctx);
  confirmEmailRoutes(app, ctx);
  qrTokenRoutes(app, ctx);
  autoLoginRoutes(app, ctx);
  launchRoutes(app, ctx);
  signedTokenLoginRoutes(app, ctx);
  startRoutes(app, ctx);
  // Consultation types and sessions
  consultationTypesRoutes(app, ctx);
  consultationSessionsRoutes(app, ctx);
  consultationFeedbackRoutes(app, ctx);
  generatedDocumentsRoutes(app, ctx);
  creditsRoutes(app, ctx);
  // Audio, generation and assistants
  audioToTextRoutes(app, ctx);
  generateRoutes(app, ctx);
  assistantsRoutes(app, ctx);
  assistantsCatalogRoutes(app, ctx);
  announcementsRoutes(app, ctx);
  templatesRoutes(app, ctx);
  // Templates and guides
  processorInputsRoutes(app, ctx);
  selectableDocumentsRoutes(app, ctx);
  customDocumentRequestsRoutes(app, ctx);
  // Research
  researchSpacesRoutes(app, ctx);
  // The server's own settings
  aiEnginesRoutes(app, ctx);
}
