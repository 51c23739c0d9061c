/** Every mail the server sends, in the recipient's language (pt, en, de, es). */
import type { Language } from '../../../contract/account.js';

type Rendered = { subject: string; text: string };

/**
 * To an address nobody has proven yet: no name in it, since whoever asked for the account chose the name (it could
 * read as a message of its own to the address's owner).
 */
const confirmEmail: Record<Language, (link: string) => Rendered> = {
  pt: (link) => ({
    subject: 'Confirme o seu endereço de e-mail',
    text: `Olá,\n\nPara confirmar o seu endereço de e-mail, abra esta ligação:\n${link}\n\nSe não criou uma conta, ignore esta mensagem.\n`,
  }),
  en: (link) => ({
    subject: 'Confirm your e-mail address',
    text: `Hello,\n\nTo confirm your e-mail address, open this link:\n${link}\n\nIf you did not create an account, ignore this message.\n`,
  }),
  de: (link) => ({
    subject: 'Bestätigen Sie Ihre E-Mail-Adresse',
    text: `Hallo,\n\nUm Ihre E-Mail-Adresse zu bestätigen, öffnen Sie diesen Link:\n${link}\n\nWenn Sie kein Konto erstellt haben, ignorieren Sie diese Nachricht.\n`,
  }),
  es: (link) => ({
    subject: 'Confirme su dirección de correo electrónico',
    text: `Hola:\n\nPara confirmar su dirección de correo electrónico, abra este enlace:\n${link}\n\nSi no ha creado una cuenta, ignore este mensaje.\n`,
  }),
};

const resetPassword: Record<Language, (name: string, link: string, minutes: number) => Rendered> = {
  pt: (name, link, m) => ({
    subject: 'Redefinir a sua palavra-passe',
    text: `Olá ${name},\n\nPara definir uma nova palavra-passe, abra esta ligação nos próximos ${m} minutos:\n${link}\n\nSe não pediu esta alteração, ignore esta mensagem; a sua palavra-passe mantém-se.\n`,
  }),
  en: (name, link, m) => ({
    subject: 'Reset your password',
    text: `Hello ${name},\n\nTo choose a new password, open this link within ${m} minutes:\n${link}\n\nIf you did not ask for this, ignore this message; your password stays as it is.\n`,
  }),
  de: (name, link, m) => ({
    subject: 'Passwort zurücksetzen',
    text: `Hallo ${name},\n\nUm ein neues Passwort festzulegen, öffnen Sie diesen Link innerhalb von ${m} Minuten:\n${link}\n\nWenn Sie dies nicht angefordert haben, ignorieren Sie diese Nachricht; Ihr Passwort bleibt unverändert.\n`,
  }),
  es: (name, link, m) => ({
    subject: 'Restablecer su contraseña',
    text: `Hola ${name}:\n\nPara elegir una nueva contraseña, abra este enlace en los próximos ${m} minutos:\n${link}\n\nSi no lo ha solicitado, ignore este mensaje; su contraseña no cambia.\n`,
  }),
};

const invitation: Record<Language, (organization: string, link: string, days: number) => Rendered> = {
  pt: (org, link, d) => ({
    subject: `Convite para a organização ${org}`,
    text: `Olá,\n\nFoi convidado para a organização ${org}. Para aceitar, abra esta ligação nos próximos ${d} dias:\n${link}\n`,
  }),
  en: (org, link, d) => ({
    subject: `Invitation to the organization ${org}`,
    text: `Hello,\n\nYou have been invited to the organization ${org}. To accept, open this link within ${d} days:\n${link}\n`,
  }),
  de: (org, link, d) => ({
    subject: `Einladung in die Organisation ${org}`,
    text: `Hallo,\n\nSie wurden in die Organisation ${org} eingeladen. Um anzunehmen, öffnen Sie diesen Link innerhalb von ${d} Tagen:\n${link}\n`,
  }),
  es: (org, link, d) => ({
    subject: `Invitación a la organización ${org}`,
    text: `Hola:\n\nHa sido invitado a la organización ${org}. Para aceptar, abra este enlace en los próximos ${d} días:\n${link}\n`,
  }),
};

/** A record system's user was linked to the account (its password was entered on a launch): said at once, so a link nobody meant is seen. */
const recordSystemLinked: Record<Language, (name: string, recordSystem: string, link: string) => Rendered> = {
  pt: (name, rs, link) => ({
    subject: 'A sua conta foi associada a um processo clínico',
    text: `Olá ${name},

A palavra-passe da sua conta foi introduzida para a associar ao utilizador de um processo clínico (${rs}). A partir de agora, esse processo clínico inicia a sua sessão diretamente.

Se não foi o próprio, redefina já a sua palavra-passe (isso desfaz a associação):
${link}
`,
  }),
  en: (name, rs, link) => ({
    subject: 'Your account was linked to a record system',
    text: `Hello ${name},

Your account's password was entered to link it to a user of a record system (${rs}). From now on that record system signs you in directly.

If this was not you, reset your password now (that removes the link):
${link}
`,
  }),
  de: (name, rs, link) => ({
    subject: 'Ihr Konto wurde mit einem Aktensystem verknüpft',
    text: `Hallo ${name},

Das Passwort Ihres Kontos wurde eingegeben, um es mit einem Benutzer eines Aktensystems (${rs}) zu verknüpfen. Ab jetzt meldet dieses Aktensystem Sie direkt an.

Wenn Sie das nicht waren, setzen Sie Ihr Passwort jetzt zurück (das hebt die Verknüpfung auf):
${link}
`,
  }),
  es: (name, rs, link) => ({
    subject: 'Su cuenta se ha vinculado a una historia clínica',
    text: `Hola ${name}:

Se introdujo la contraseña de su cuenta para vincularla a un usuario de una historia clínica (${rs}). A partir de ahora, esa historia clínica inicia su sesión directamente.

Si no fue usted, restablezca ya su contraseña (eso deshace el vínculo):
${link}
`,
  }),
};

/**
 * Someone signed up with an address that already has a confirmed account. The sign-up answered as for a new
 * address (so it tells nobody who has an account); only the address's owner learns of it, here.
 */
const signupAccountExists: Record<Language, (name: string, signInLink: string, resetLink: string) => Rendered> = {
  pt: (name, signIn, reset) => ({
    subject: 'Tentativa de criar uma conta com o seu endereço',
    text: `Olá ${name},

Alguém tentou criar uma conta com este endereço de e-mail, que já tem uma conta. Nada foi alterado na sua conta.

Se foi o próprio, inicie sessão:
${signIn}

Se não se lembra da palavra-passe, redefina-a aqui:
${reset}

Se não foi o próprio, ignore esta mensagem.
`,
  }),
  en: (name, signIn, reset) => ({
    subject: 'Someone tried to create an account with your address',
    text: `Hello ${name},

Someone tried to create an account with this e-mail address, which already has an account. Nothing in your account was changed.

If it was you, sign in:
${signIn}

If you do not remember your password, reset it here:
${reset}

If it was not you, ignore this message.
`,
  }),
  de: (name, signIn, reset) => ({
    subject: 'Jemand wollte mit Ihrer Adresse ein Konto erstellen',
    text: `Hallo ${name},

Jemand hat versucht, mit dieser E-Mail-Adresse ein Konto zu erstellen; für sie besteht bereits ein Konto. An Ihrem Konto wurde nichts geändert.

Wenn Sie es waren, melden Sie sich an:
${signIn}

Wenn Sie Ihr Passwort nicht mehr wissen, setzen Sie es hier zurück:
${reset}

Wenn Sie es nicht waren, ignorieren Sie diese Nachricht.
`,
  }),
  es: (name, signIn, reset) => ({
    subject: 'Alguien intentó crear una cuenta con su dirección',
    text: `Hola ${name}:

Alguien intentó crear una cuenta con esta dirección de correo electrónico, que ya tiene una cuenta. No se ha cambiado nada en su cuenta.

Si fue usted, inicie sesión:
${signIn}

Si no recuerda su contraseña, restablézcala aquí:
${reset}

Si no fue usted, ignore este mensaje.
`,
  }),
};

/**
 * Someone signed up again with an address whose account was never confirmed. Its confirmation is not sent
 * again: that account's password may have been chosen by someone else. Finishing means choosing a password
 * through this link, which confirms the address and ends any session opened with the earlier password. No name in
 * it: the account's name was chosen by whoever started it, who may not be the address's owner.
 */
const signupFinish: Record<Language, (link: string, minutes: number) => Rendered> = {
  pt: (link, m) => ({
    subject: 'Conclua a criação da sua conta',
    text: `Olá,

Foi pedida a criação de uma conta com este endereço de e-mail, que já tinha uma conta por confirmar. Para a concluir, escolha a sua palavra-passe com esta ligação nos próximos ${m} minutos (isto também confirma o seu endereço):
${link}

Se não foi o próprio, ignore esta mensagem.
`,
  }),
  en: (link, m) => ({
    subject: 'Finish creating your account',
    text: `Hello,

An account was requested with this e-mail address, which already had an account waiting for confirmation. To finish, choose your password with this link within ${m} minutes (this also confirms your address):
${link}

If it was not you, ignore this message.
`,
  }),
  de: (link, m) => ({
    subject: 'Schließen Sie die Erstellung Ihres Kontos ab',
    text: `Hallo,

Mit dieser E-Mail-Adresse wurde ein Konto angefordert; für sie bestand bereits ein noch nicht bestätigtes Konto. Um es abzuschließen, wählen Sie Ihr Passwort über diesen Link innerhalb von ${m} Minuten (damit ist auch Ihre Adresse bestätigt):
${link}

Wenn Sie es nicht waren, ignorieren Sie diese Nachricht.
`,
  }),
  es: (link, m) => ({
    subject: 'Termine de crear su cuenta',
    text: `Hola:

Se solicitó una cuenta con esta dirección de correo electrónico, que ya tenía una cuenta pendiente de confirmar. Para terminar, elija su contraseña con este enlace en los próximos ${m} minutos (esto también confirma su dirección):
${link}

Si no fue usted, ignore este mensaje.
`,
  }),
};

export const mailTemplates = { confirmEmail, resetPassword, invitation, recordSystemLinked, signupAccountExists, signupFinish };
