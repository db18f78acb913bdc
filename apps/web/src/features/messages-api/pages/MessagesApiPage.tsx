import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, apiBaseUrl } from '../../../app/api';
import { ConfirmationDialog, useConfirmation } from '../../../app/components/ConfirmDialog';
import { PageHeader } from '../../../app/components/PageHeader';
import { toast } from '../../../app/toast';
import { useConnections } from '../../connections/api';
import { type ApiTestSend, useApiTestSend, useApiToken, useRegenerateToken } from '../api';

const ENDPOINT = '/api/messages/send';

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: 2, mb: 2 }}>
      <Typography id={id} variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function Code({ text, label }: { text: string; label: string }) {
  return (
    <Box
      component="pre"
      aria-label={label}
      tabIndex={0}
      sx={{
        m: 0,
        p: 1.5,
        borderRadius: 1,
        bgcolor: 'action.hover',
        fontSize: 13,
        overflowX: 'auto',
        whiteSpace: 'pre',
      }}
    >
      <code>{text}</code>
    </Box>
  );
}

/** The answer of a test send, or why it was refused. */
function useTestForm() {
  const { t } = useTranslation('messagesApi');
  const send = useApiTestSend();
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const submit = (input: ApiTestSend) => {
    setOutcome(null);
    send.mutate(input, {
      onSuccess: (result) => {
        setOutcome({ ok: true, text: t('test.sent', { id: result.id }) });
        toast.success(t('test.sentToast'));
      },
      onError: (error) => {
        const status = error instanceof ApiError ? error.status : 0;
        const key =
          status === 401
            ? 'test.badToken'
            : status === 403
              ? 'test.noPlan'
              : status === 429
                ? 'test.tooMany'
                : status === 400
                  ? 'test.invalid'
                  : 'test.failed';
        setOutcome({ ok: false, text: t(key) });
      },
    });
  };
  return { submit, pending: send.isPending, outcome };
}

function TextTestForm({ token }: { token: string }) {
  const { t } = useTranslation('messagesApi');
  const { submit, pending, outcome } = useTestForm();
  const [number, setNumber] = useState('');
  const [body, setBody] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit({ token, kind: 'text', data: { number, body } });
  };
  return (
    <Box
      component="form"
      onSubmit={onSubmit}
      aria-label={t('text.formLabel')}
      sx={{ display: 'grid', gap: 2 }}
    >
      <TextField
        label={t('fields.number')}
        helperText={t('fields.numberHelp')}
        value={number}
        onChange={(e) => setNumber(e.target.value)}
        required
        inputProps={{ inputMode: 'tel' }}
      />
      <TextField
        label={t('fields.body')}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        required
        multiline
        minRows={2}
      />
      {outcome && (
        <Alert severity={outcome.ok ? 'success' : 'error'} role="status">
          {outcome.text}
        </Alert>
      )}
      <Box>
        <Button type="submit" variant="contained" disabled={pending || !token}>
          {t('test.send')}
        </Button>
      </Box>
    </Box>
  );
}

function MediaTestForm({ token }: { token: string }) {
  const { t } = useTranslation('messagesApi');
  const { submit, pending, outcome } = useTestForm();
  const [number, setNumber] = useState('');
  const [body, setBody] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const fileId = useId();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    submit({ token, kind: 'media', number, body, file });
  };
  return (
    <Box
      component="form"
      onSubmit={onSubmit}
      aria-label={t('media.formLabel')}
      sx={{ display: 'grid', gap: 2 }}
    >
      <TextField
        label={t('fields.number')}
        helperText={t('fields.numberHelp')}
        value={number}
        onChange={(e) => setNumber(e.target.value)}
        required
        inputProps={{ inputMode: 'tel' }}
      />
      <TextField
        label={t('fields.caption')}
        value={body}
        onChange={(e) => setBody(e.target.value)}
      />
      <Box>
        <Button variant="outlined" component="label" htmlFor={fileId}>
          {file ? t('fields.fileChosen', { name: file.name }) : t('fields.file')}
          <input
            id={fileId}
            type="file"
            hidden
            aria-label={t('fields.file')}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </Button>
      </Box>
      {outcome && (
        <Alert severity={outcome.ok ? 'success' : 'error'} role="status">
          {outcome.text}
        </Alert>
      )}
      <Box>
        <Button type="submit" variant="contained" disabled={pending || !token || !file}>
          {t('test.send')}
        </Button>
      </Box>
    </Box>
  );
}

/**
 * The external API's documentation (spec administration 3): how to send text and media, with
 * curl examples and test forms that call the API as an outside system does, with the chosen
 * connection's token.
 */
export function MessagesApiPage() {
  const { t } = useTranslation('messagesApi');
  const connections = useConnections();
  const list = connections.data ?? [];
  const [chosen, setChosen] = useState<number | null>(null);
  const connectionId = chosen ?? list[0]?.id ?? null;
  const token = useApiToken(connectionId);
  const regenerate = useRegenerateToken();
  const confirmation = useConfirmation<number>(
    (id) => regenerate.mutateAsync(id),
    t('token.regenerated'),
  );
  const [shown, setShown] = useState(false);
  const url = `${apiBaseUrl()}${ENDPOINT}`;
  const tokenText = token.data ?? '';
  const shownToken = shown ? tokenText : '<TOKEN>';

  const curlText = `curl -X POST '${url}' \\
  -H 'Authorization: Bearer ${shownToken}' \\
  -H 'Content-Type: application/json' \\
  -d '{"number": "5511999999999", "body": "${t('text.example')}"}'`;
  const curlMedia = `curl -X POST '${url}' \\
  -H 'Authorization: Bearer ${shownToken}' \\
  -F 'number=5511999999999' \\
  -F 'body=${t('media.example')}' \\
  -F 'medias=@${t('media.filePath')}'`;

  const copy = async () => {
    await navigator.clipboard?.writeText(tokenText).catch(() => undefined);
    toast.success(t('token.copied'));
  };
  const askRegenerate = () => {
    if (connectionId !== null) confirmation.ask(connectionId);
  };

  return (
    <>
      <PageHeader title={t('title')} />
      <Section title={t('token.title')}>
        <Typography sx={{ mb: 2 }} color="text.secondary">
          {t('token.intro')}
        </Typography>
        {list.length === 0 && !connections.isLoading ? (
          <Alert severity="info">{t('token.noConnections')}</Alert>
        ) : (
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { md: '1fr 2fr' } }}>
            <TextField
              select
              label={t('fields.connection')}
              value={connectionId ?? ''}
              onChange={(e) => {
                setChosen(Number(e.target.value));
                setShown(false);
              }}
            >
              {list.map((connection) => (
                <MenuItem key={connection.id} value={connection.id}>
                  {connection.name}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label={t('fields.token')}
              value={shown ? tokenText : '•'.repeat(Math.min(tokenText.length, 24))}
              slotProps={{
                input: {
                  readOnly: true,
                  endAdornment: (
                    <InputAdornment position="end">
                      <IconButton
                        aria-label={shown ? t('token.hide') : t('token.show')}
                        onClick={() => setShown((value) => !value)}
                        edge="end"
                      >
                        {shown ? <VisibilityOffIcon /> : <VisibilityIcon />}
                      </IconButton>
                      <IconButton aria-label={t('token.copy')} onClick={copy} edge="end">
                        <ContentCopyIcon />
                      </IconButton>
                    </InputAdornment>
                  ),
                },
              }}
            />
            <Box sx={{ gridColumn: { md: '2' } }}>
              {/* error, not warning: the warning orange is too pale on white for its text (WCAG AA) */}
              <Button
                variant="outlined"
                color="error"
                onClick={askRegenerate}
                disabled={connectionId === null}
              >
                {t('token.regenerate')}
              </Button>
            </Box>
          </Box>
        )}
      </Section>

      <Section title={t('methods.title')}>
        <Typography component="ol" sx={{ pl: 3, m: 0 }}>
          <li>{t('methods.text')}</li>
          <li>{t('methods.media')}</li>
        </Typography>
        <Typography sx={{ mt: 2 }}>{t('methods.instructions')}</Typography>
        <Typography component="ul" sx={{ pl: 3 }}>
          <li>{t('methods.numberRule')}</li>
          <li>{t('methods.tokenRule')}</li>
        </Typography>
      </Section>

      {/* minmax(0, …): a curl line scrolls inside its block instead of widening the page */}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' },
        }}
      >
        <Section title={t('text.title')}>
          <Typography sx={{ mb: 1, overflowWrap: 'anywhere' }}>
            <strong>POST</strong> {url}
          </Typography>
          <Code text={curlText} label={t('text.curlLabel')} />
          <Typography variant="subtitle1" component="h3" sx={{ mt: 2, mb: 1 }}>
            {t('test.title')}
          </Typography>
          <TextTestForm token={tokenText} />
        </Section>
        <Section title={t('media.title')}>
          <Typography sx={{ mb: 1, overflowWrap: 'anywhere' }}>
            <strong>POST</strong> {url}
          </Typography>
          <Code text={curlMedia} label={t('media.curlLabel')} />
          <Typography variant="subtitle1" component="h3" sx={{ mt: 2, mb: 1 }}>
            {t('test.title')}
          </Typography>
          <MediaTestForm token={tokenText} />
        </Section>
      </Box>
      <ConfirmationDialog
        confirmation={confirmation}
        title={() => t('token.regenerateTitle')}
        message={t('token.regenerateMessage')}
        confirmLabel={t('token.regenerate')}
      />
    </>
  );
}
