import AttachFileIcon from '@mui/icons-material/AttachFile';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { type ChangeEvent, useId, useRef, useState } from 'react';

interface AttachmentFieldProps {
  /** The field's caption ('Anexo'). */
  label: string;
  /** The file it has now (a chosen one, or the record's), or null. */
  fileName: string | null;
  /** Types the file picker offers. */
  accept: readonly string[];
  /** Largest file taken, in bytes; a bigger one shows `tooLargeText`. */
  maxBytes: number;
  texts: {
    attach: string;
    choose: string;
    remove: (name: string) => string;
    tooLarge: string;
    /** Shown for a file of another type than `accept` (a picker lets any through). */
    wrongType?: string;
  };
  onChoose: (file: File) => void;
  onRemove: () => void;
  disabled?: boolean;
}

/** One optional file of a form: a button to choose it, then its name and a remove button. */
export function AttachmentField(props: AttachmentFieldProps) {
  const { label, fileName, accept, maxBytes, texts, onChoose, onRemove, disabled } = props;
  const input = useRef<HTMLInputElement>(null);
  const labelId = useId();
  const [error, setError] = useState<string | null>(null);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (texts.wrongType && !accept.includes(file.type)) {
      setError(texts.wrongType);
      return;
    }
    if (file.size > maxBytes) {
      setError(texts.tooLarge);
      return;
    }
    setError(null);
    onChoose(file);
  };

  return (
    <Box role="group" aria-labelledby={labelId}>
      <Typography
        id={labelId}
        variant="caption"
        color="text.secondary"
        component="div"
        sx={{ mb: 0.5 }}
      >
        {label}
      </Typography>
      <input
        ref={input}
        type="file"
        hidden
        accept={accept.join(',')}
        aria-label={texts.choose}
        onChange={choose}
      />
      {fileName ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
          <AttachFileIcon fontSize="small" aria-hidden />
          <Typography
            variant="body2"
            sx={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' }}
            noWrap
          >
            {fileName}
          </Typography>
          {!disabled && (
            <IconButton size="small" aria-label={texts.remove(fileName)} onClick={onRemove}>
              <DeleteOutlineIcon fontSize="small" />
            </IconButton>
          )}
        </Box>
      ) : (
        <Button
          variant="outlined"
          size="small"
          startIcon={<AttachFileIcon />}
          disabled={disabled}
          onClick={() => input.current?.click()}
        >
          {texts.attach}
        </Button>
      )}
      {error && (
        <Typography variant="caption" color="error" component="div" role="alert">
          {error}
        </Typography>
      )}
    </Box>
  );
}

/**
 * The file a form's AttachmentField edits, over the record's `current` one: `fileName` to show,
 * `choose` and `remove` for the field, and `toSave` for saveWithAttachment (undefined keeps the
 * record's file, null removes it, a File replaces it).
 */
export function useAttachment(current: string | null | undefined) {
  const [media, setMedia] = useState<File | null | undefined>(undefined);
  const fileName = media instanceof File ? media.name : media === null ? null : (current ?? null);
  return {
    fileName,
    choose: (file: File) => setMedia(file),
    remove: () => setMedia(null),
    // a removal only matters when there is something to remove
    toSave: media === null && !current ? undefined : media,
  };
}
